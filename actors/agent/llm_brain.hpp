#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "actors/agent/brain.hpp"
#include "actors/agent/rule_brain.hpp"
#include "actors/llm/wire_format.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"
#include "messages/llm.hpp"

namespace parley::actors::agent {

/// How an LLM brain talks to its model.
struct llm_brain_options {
  llm::provider_kind provider = llm::provider_kind::anthropic;
  std::string model = "claude-sonnet-4-20250514";
  int max_tokens = 1024;
  /// Replies with a refused tool call (or an unreadable body) a turn may
  /// have before the rule brain decides instead.
  std::int32_t max_bad_turns = 3;
  /// Model calls one turn may take (a guard against endless tool loops).
  std::int32_t max_calls_per_turn = 10;
};

/// Something the agent shell carries out for the brain.
struct llm_output {
  enum class kind { decision, message, tool_call, propose };
  kind what = kind::message;
  std::string negotiation_id;
  messages::decision decision;
  /// The rule brain decided because the model could not.
  bool fallback = false;
  /// The model's text, or a tool's result.
  std::string text;
  /// The tool's name.
  std::string name;
  /// The tool's input as JSON text.
  std::string input;
  /// analyze_and_propose's proposal.
  messages::proposal proposal;
};

/// The LLM agent's conversation (docs/protocols/llm-agent.md) as a pure state machine:
/// system prompt, message history, the tool-use loop and the concurrency guard (one
/// call in flight; what arrives meanwhile waits in order). It builds request bodies and
/// reads reply bodies; the agent actor sends and receives them.
///
/// Usage: the room sets the tools (`set_tools`); queue work (`on_offer`,
/// `on_text`), then `next_call()` gives the body to send if a call may start;
/// feed the answer to `on_reply` or the failure to `on_failure`, carry out the
/// outputs, and ask `next_call()` again.
///
/// The model sees only the tools set (none before the room sets them: then it cannot
/// decide, and the rule brain answers offers). A call of any other tool gets
/// `Error: Unknown tool "<name>"` as its result
/// (docs/protocols/llm-agent.md, "The tool loop").
/// The handlers of the three tools (analyze_and_propose, evaluate_proposal,
/// send_message_to_user) are this brain's; a definition with another name has no
/// handler and is refused.
///
/// Offers always get an answer while their negotiation runs: when the model
/// fails, refuses to decide, or gives `max_bad_turns` bad replies, the rule
/// brain decides (fallback). Once a negotiation has ended (`on_ended`), its
/// queued offers are dropped unseen, and an offer under evaluation is no
/// longer answered.
class llm_brain : public brain {
public:
  llm_brain(messages::bargaining_side side, messages::agent_profile profile,
            llm_brain_options options);

  /// Queues the offer with a neutral text and returns nullopt: the decision
  /// comes later through the outputs.
  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// Queues an offer to evaluate, shown to the model as `text` (the turn of an
  /// agent_proposal or agent_counter: docs/protocols/llm-agent.md, "Turns").
  void on_offer(const offer_context& offer, std::string text);

  /// Installs the tools the model is offered, replacing those set before.
  /// Returns why each refused definition was refused (no handler of that
  /// name, parameters that are not a JSON-schema object); the rest are set.
  std::vector<std::string> set_tools(const std::vector<messages::tool_definition>& tools);

  /// The negotiation has ended: its queued offers are dropped, and if it is
  /// the one under evaluation, evaluate_proposal tells the model so.
  void on_ended(const std::string& negotiation_id);

  /// Queues a user turn that needs no decision (accept/reject news, a
  /// transcript batch, a negotiation trigger).
  void on_text(std::string text);

  /// Returns the next request body if no call is in flight and work waits.
  std::optional<std::string> next_call();

  /// Feeds a 2xx answer body of the call in flight.
  std::vector<llm_output> on_reply(const std::string& body);

  /// Feeds a failed call (unavailable, timeout, circuit open).
  std::vector<llm_output> on_failure();

  bool busy() const noexcept { return busy_; }
  bool in_flight() const noexcept { return in_flight_; }
  std::size_t queued() const noexcept { return queue_.size(); }
  const nlohmann::json& history() const noexcept { return history_; }
  const std::string& system() const noexcept { return system_; }

private:
  struct turn {
    std::string text;
    std::optional<offer_context> offer;
  };

  void start_turn();
  /// Ends the turn; an undecided offer goes to the rule brain.
  void end_turn(std::vector<llm_output>& out, bool roll_back, const std::string& why);
  /// A tool's handler: runs it on the model's input and returns the result
  /// for the model; sets `bad` when the call is refused.
  using tool_handler = std::string (llm_brain::*)(const nlohmann::json& input,
                                                  std::vector<llm_output>& out,
                                                  bool& bad);

  /// The handler of the tool called `name`, or null when there is none.
  static tool_handler handler_of(const std::string& name);

  std::string run_tool(const nlohmann::json& call, std::vector<llm_output>& out,
                       bool& bad);
  std::string evaluate_proposal(const nlohmann::json& input,
                                std::vector<llm_output>& out, bool& bad);
  std::string analyze_and_propose(const nlohmann::json& input,
                                  std::vector<llm_output>& out, bool& bad);
  std::string send_message_to_user(const nlohmann::json& input,
                                   std::vector<llm_output>& out, bool& bad);

  messages::agent_profile profile_;
  llm_brain_options options_;
  rule_brain fallback_;
  std::string system_;
  /// The tools set, as {name, description, parameters} objects.
  std::vector<nlohmann::json> tools_;
  nlohmann::json history_ = nlohmann::json::array();
  std::deque<turn> queue_;
  /// The turn being worked on.
  std::optional<offer_context> offer_;
  /// The offer under evaluation belongs to a negotiation that has ended.
  bool offer_ended_ = false;
  bool decided_ = false;
  std::size_t turn_start_ = 0;
  std::int32_t bad_turns_ = 0;
  std::int32_t calls_ = 0;
  bool busy_ = false;
  bool in_flight_ = false;
};

} // namespace parley::actors::agent
