#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "actors/agent/brain.hpp"
#include "actors/agent/rule_brain.hpp"
#include "actors/llm/wire_format.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"

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

/// Seed 001's AgentService conversation as a pure state machine: system
/// prompt, message history, the tool-use loop and the concurrency guard (one
/// call in flight; what arrives meanwhile waits in order). It builds request
/// bodies and reads reply bodies; the agent actor sends and receives them.
///
/// Usage: queue work (`on_offer`, `on_text`), then `next_call()` gives the body
/// to send if a call may start; feed the answer to `on_reply` or the failure to
/// `on_failure`, carry out the outputs, and ask `next_call()` again.
///
/// Offers always get an answer: when the model fails, refuses to decide, or
/// gives `max_bad_turns` bad replies, the rule brain decides (fallback).
class llm_brain : public brain {
public:
  llm_brain(messages::bargaining_side side, messages::agent_profile profile,
            llm_brain_options options);

  /// Queues the offer with a neutral text and returns nullopt: the decision
  /// comes later through the outputs.
  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// Queues an offer to evaluate, shown to the model as `text` (seed 001's
  /// wording for an agent_proposal or agent_counter).
  void on_offer(const offer_context& offer, std::string text);

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
  std::string run_tool(const nlohmann::json& call, std::vector<llm_output>& out,
                       bool& bad);

  messages::agent_profile profile_;
  llm_brain_options options_;
  rule_brain fallback_;
  std::string system_;
  std::vector<nlohmann::json> tools_;
  nlohmann::json history_ = nlohmann::json::array();
  std::deque<turn> queue_;
  /// The turn being worked on.
  std::optional<offer_context> offer_;
  bool decided_ = false;
  std::size_t turn_start_ = 0;
  std::int32_t bad_turns_ = 0;
  std::int32_t calls_ = 0;
  bool busy_ = false;
  bool in_flight_ = false;
};

} // namespace parley::actors::agent
