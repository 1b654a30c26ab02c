#pragma once

#include <string>
#include <vector>

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"

namespace parley::actors::llm {

/// Seed 001's buildAgentSystemPrompt, with amounts shown from minor units.
std::string system_prompt(const messages::agent_profile& profile);

/// A proposal as the seed shows it to the model: JSON.stringify(p, null, 2).
std::string proposal_text(const messages::proposal& p);

/// Seed 001's user turns for the four agent messages, word for word.
std::string incoming_text(const messages::agent_proposal& x);
std::string incoming_text(const messages::agent_counter& x);
std::string incoming_text(const messages::agent_accept& x);
std::string incoming_text(const messages::agent_reject& x);

/// What made a negotiation start (seed 001's TriggerEvent).
struct trigger {
  std::string type;
  std::string matched_text;
  double confidence = 0;
};

/// Seed 001's startNegotiation user turn.
std::string trigger_text(const trigger& t, const std::string& conversation_context);

/// One transcript line (seed 001's TranscriptEntry).
struct transcript_line {
  std::string source;
  std::string speaker;
  std::string text;
};

/// Seed 001's flushTranscriptBatch turn: "[source] speaker: text" per line.
std::string transcript_text(const std::vector<transcript_line>& batch);

} // namespace parley::actors::llm
