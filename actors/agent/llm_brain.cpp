#include "actors/agent/llm_brain.hpp"

#include <algorithm>
#include <utility>

#include "actors/llm/prompt.hpp"
#include "actors/llm/validation.hpp"

namespace parley::actors::agent {

using nlohmann::json;

llm_brain::llm_brain(messages::bargaining_side side, messages::agent_profile profile,
                     llm_brain_options options)
    : profile_(std::move(profile)), options_(std::move(options)),
      fallback_(side, profile_),
      system_(llm::system_prompt(profile_, fallback_.side())) {}

std::vector<std::string>
llm_brain::set_tools(const std::vector<messages::tool_definition>& tools) {
  std::vector<std::string> refused;
  tools_.clear();
  for (const auto& t : tools) {
    if (handler_of(t.name) == nullptr) {
      refused.push_back("tool \"" + t.name + "\" has no handler in this agent");
      continue;
    }
    auto parameters = json::parse(t.parameters.text, nullptr, false);
    if (parameters.is_discarded() || !parameters.is_object()) {
      refused.push_back("tool \"" + t.name + "\" has parameters that are not a "
                        "JSON object");
      continue;
    }
    tools_.push_back(
        {{"name", t.name}, {"description", t.description}, {"parameters", parameters}});
  }
  return refused;
}

void llm_brain::on_ended(const std::string& negotiation_id) {
  queue_.erase(std::remove_if(queue_.begin(), queue_.end(),
                              [&](const turn& t) {
                                return t.offer && t.offer->negotiation_id ==
                                                      negotiation_id;
                              }),
               queue_.end());
  if (offer_ && offer_->negotiation_id == negotiation_id)
    offer_ended_ = true;
}

std::optional<messages::decision> llm_brain::decide(const offer_context& offer) {
  on_offer(offer, "[INCOMING PROPOSAL]\n" + llm::proposal_text(offer.incoming) +
                      "\n\nUse the evaluate_proposal tool to assess this proposal "
                      "against your preferences and decide to accept, counter, or "
                      "reject.");
  return std::nullopt;
}

void llm_brain::on_offer(const offer_context& offer, std::string text) {
  queue_.push_back(turn{std::move(text), offer});
}

void llm_brain::on_text(std::string text) {
  queue_.push_back(turn{std::move(text), std::nullopt});
}

void llm_brain::start_turn() {
  auto t = std::move(queue_.front());
  queue_.pop_front();
  turn_start_ = history_.size();
  history_.push_back({{"role", "user"}, {"content", std::move(t.text)}});
  offer_ = std::move(t.offer);
  offer_ended_ = false;
  decided_ = false;
  bad_turns_ = 0;
  calls_ = 0;
  busy_ = true;
}

std::optional<std::string> llm_brain::next_call() {
  if (in_flight_)
    return std::nullopt;
  if (!busy_) {
    if (queue_.empty())
      return std::nullopt;
    start_turn();
  }
  in_flight_ = true;
  ++calls_;
  llm::request_parts parts;
  parts.model = options_.model;
  parts.max_tokens = options_.max_tokens;
  parts.system = system_;
  parts.messages = &history_;
  parts.tools = &tools_;
  return llm::build_request(options_.provider, parts);
}

void llm_brain::end_turn(std::vector<llm_output>& out, bool roll_back,
                         const std::string& why) {
  if (roll_back && history_.size() > turn_start_)
    history_.erase(history_.begin() + static_cast<std::ptrdiff_t>(turn_start_),
                   history_.end());
  if (offer_ && !decided_ && !offer_ended_) {
    llm_output o;
    o.what = llm_output::kind::decision;
    o.negotiation_id = offer_->negotiation_id;
    o.decision = fallback_.decide(*offer_).value_or(messages::decision{});
    o.decision.delay_ms = 0;
    if (!why.empty())
      o.decision.reason = why + "; " + o.decision.reason;
    o.fallback = true;
    out.push_back(std::move(o));
  }
  offer_.reset();
  busy_ = false;
  in_flight_ = false;
}

llm_brain::tool_handler llm_brain::handler_of(const std::string& name) {
  if (name == "evaluate_proposal")
    return &llm_brain::evaluate_proposal;
  if (name == "analyze_and_propose")
    return &llm_brain::analyze_and_propose;
  if (name == "send_message_to_user")
    return &llm_brain::send_message_to_user;
  return nullptr;
}

std::string llm_brain::run_tool(const json& call, std::vector<llm_output>& out,
                                bool& bad) {
  auto name = call.value("name", std::string{});
  auto offered = std::any_of(tools_.begin(), tools_.end(),
                             [&](const json& t) { return t["name"] == name; });
  if (!offered) {
    bad = true;
    return "Error: Unknown tool \"" + name + "\"";
  }
  // Only tools with a handler are ever offered (set_tools).
  auto run = handler_of(name);
  return (this->*run)(call.contains("input") ? call["input"] : json(), out, bad);
}

std::string llm_brain::evaluate_proposal(const json& input, std::vector<llm_output>& out,
                                         bool& bad) {
  if (!offer_) {
    bad = true;
    return "Error: there is no proposal to evaluate right now";
  }
  if (offer_ended_)
    return "Error: negotiation " + offer_->negotiation_id +
           " has already ended; there is nothing to answer";
  if (decided_) {
    bad = true;
    return "Error: this proposal has already been answered";
  }
  auto r = llm::check_evaluation(input, offer_->incoming, profile_.preferences,
                                 fallback_.side());
  if (!r.ok()) {
    bad = true;
    return r.error;
  }
  decided_ = true;
  llm_output o;
  o.what = llm_output::kind::decision;
  o.negotiation_id = offer_->negotiation_id;
  o.decision = r.value;
  out.push_back(o);
  return "Decision recorded: " + messages::to_string(r.value.action);
}

std::string llm_brain::analyze_and_propose(const json& input,
                                           std::vector<llm_output>& out, bool& bad) {
  auto r = llm::check_proposal(input, profile_.preferences, fallback_.side());
  if (!r.ok()) {
    bad = true;
    return r.error;
  }
  llm_output o;
  o.what = llm_output::kind::propose;
  o.proposal = r.value;
  out.push_back(o);
  return "Proposal sent to the other party";
}

std::string llm_brain::send_message_to_user(const json& input,
                                            std::vector<llm_output>& out, bool& bad) {
  if (!input.is_object() || !input.contains("message") || !input["message"].is_string()) {
    bad = true;
    return "Error: message must be a string";
  }
  llm_output o;
  o.what = llm_output::kind::message;
  o.text = input["message"].get<std::string>();
  out.push_back(o);
  return "Message delivered to the user";
}

std::vector<llm_output> llm_brain::on_reply(const std::string& body) {
  std::vector<llm_output> out;
  if (!in_flight_)
    return out;
  in_flight_ = false;
  auto reply = llm::parse_reply(options_.provider, body);
  if (!reply.error.empty()) {
    // Nothing to answer the model with: ask again, or give up.
    if (++bad_turns_ >= options_.max_bad_turns || calls_ >= options_.max_calls_per_turn)
      end_turn(out, true,
               "The model's answers could not be read (" + reply.error + ")");
    return out;
  }
  history_.push_back({{"role", "assistant"}, {"content", reply.content}});
  json results = json::array();
  bool bad = false;
  for (const auto& block : reply.content) {
    if (block["type"] == "text") {
      auto text = block["text"].get<std::string>();
      if (text.find_first_not_of(" \t\r\n") != std::string::npos) {
        llm_output o;
        o.what = llm_output::kind::message;
        o.text = std::move(text);
        out.push_back(std::move(o));
      }
    } else if (block["type"] == "tool_use") {
      auto result = run_tool(block, out, bad);
      llm_output o;
      o.what = llm_output::kind::tool_call;
      o.name = block.value("name", std::string{});
      o.input =
          block.contains("input")
              ? block["input"].dump(-1, ' ', false, json::error_handler_t::replace)
              : "null";
      o.text = result;
      if (offer_)
        o.negotiation_id = offer_->negotiation_id;
      out.push_back(std::move(o));
      results.push_back(
          {{"type", "tool_result"}, {"tool_use_id", block["id"]}, {"content", result}});
    }
  }
  if (bad && ++bad_turns_ >= options_.max_bad_turns) {
    end_turn(out, true,
             "The model gave " + std::to_string(bad_turns_) + " bad answers");
    return out;
  }
  if (reply.stop_reason != "tool_use" || results.empty()) {
    end_turn(out, false, "The model did not decide");
    return out;
  }
  history_.push_back({{"role", "user"}, {"content", std::move(results)}});
  if (calls_ >= options_.max_calls_per_turn)
    end_turn(out, false, "The model used too many calls");
  return out;
}

std::vector<llm_output> llm_brain::on_failure() {
  std::vector<llm_output> out;
  if (!in_flight_)
    return out;
  end_turn(out, true, "The LLM is unavailable");
  return out;
}

} // namespace parley::actors::agent
