#pragma once

#include <string>
#include <vector>

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"

namespace parley::actors::llm {

/// The system prompt (docs/protocols/llm-agent.md, "Profile and system prompt"), with
/// amounts shown from minor units and the reservation price of `side` (buyer or
/// seller).
std::string system_prompt(const messages::agent_profile& profile,
                          messages::bargaining_side side);

/// A proposal as the model is shown it: JSON indented by two spaces.
std::string proposal_text(const messages::proposal& p);

/// The user turns for the four agent messages (docs/protocols/llm-agent.md, "Turns"),
/// word for word.
std::string incoming_text(const messages::agent_proposal& x);
std::string incoming_text(const messages::agent_counter& x);
std::string incoming_text(const messages::agent_accept& x);
std::string incoming_text(const messages::agent_reject& x);

/// What made a negotiation start (docs/protocols/llm-agent.md, "Triggers").
struct trigger {
  std::string type;
  std::string matched_text;
  double confidence = 0;
};

/// The user turn of a trigger (docs/protocols/llm-agent.md, "Turns").
std::string trigger_text(const trigger& t, const std::string& conversation_context);

/// One transcript line (docs/protocols/llm-agent.md, "Transcript batching").
struct transcript_line {
  std::string source;
  std::string speaker;
  std::string text;
};

/// A transcript batch's turn: "[source] speaker: text" per line.
std::string transcript_text(const std::vector<transcript_line>& batch);

} // namespace parley::actors::llm
