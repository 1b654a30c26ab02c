#pragma once

#include <cstdint>
#include <map>
#include <vector>
#include <string>

#include "caf/actor.hpp"
#include "caf/meta/type_name.hpp"

#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// Asks a room to open a negotiation (seed 000's createNegotiation). The room
/// answers with the new negotiation_record, or with E012 if one is active.
struct start_negotiation {
  std::string message_id;
  std::string initiator;
  std::string responder;
  messages::proposal proposal;
  /// Optional; the room generates one when empty.
  std::string intent_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, start_negotiation& x) {
  return f(caf::meta::type_name("start_negotiation"), x.message_id, x.initiator,
           x.responder, x.proposal, x.intent_id);
}

/// Tells an agent to open a negotiation in `room` with `responder`, proposing
/// `proposal` (the scenario runner and benchmarks use it; an LLM agent decides
/// this by itself).
struct initiate_negotiation {
  caf::actor room;
  std::string responder;
  messages::proposal proposal;
  std::string intent_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, initiate_negotiation& x) {
  return f(caf::meta::type_name("initiate_negotiation"), x.room, x.responder,
           x.proposal, x.intent_id);
}

/// Adds an agent to a room's participants.
struct join_room {
  std::string agent_id;
  caf::actor agent;
  /// The agent's brain is a language model: the room sets its tools.
  bool llm = false;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, join_room& x) {
  return f(caf::meta::type_name("join_room"), x.agent_id, x.agent, x.llm);
}

/// Travels behind everything a room (and its active negotiation) has been sent,
/// through the bus, back to `origin`: when it arrives, every event those
/// actors published before it has arrived too (messages between two actors
/// keep their order).
struct barrier {
  std::uint64_t id = 0;
  caf::actor origin;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, barrier& x) {
  return f(caf::meta::type_name("barrier"), x.id, x.origin);
}

/// Everything needed to build a room, on this node or another one.
struct room_spec {
  std::string id;
  /// Agent id -> the agent's actor (may be remote).
  std::map<std::string, caf::actor> participants;
  /// Participants whose brain is a language model: the room sets their tools
  /// (seed 001's setTools) when it starts.
  std::vector<std::string> llm_participants;
  negotiation_settings settings;
  /// Ended negotiations the room keeps.
  std::int32_t history_limit = 100;
  /// Makes the room's generated ids reproducible.
  std::uint64_t seed = 0;
  /// Receives the room's and its negotiations' events.
  caf::actor bus;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, room_spec& x) {
  return f(caf::meta::type_name("room_spec"), x.id, x.participants, x.llm_participants,
           x.settings,
           x.history_limit, x.seed, x.bus);
}

} // namespace parley::messages
