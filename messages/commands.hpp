#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"
#include "messages/event_sink.hpp"
#include "messages/fields.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/bus.hpp"
#include "messages/handles/room.hpp"
#include "messages/handles/timer.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// Asks a room to open a negotiation (docs/protocols/bilateral.md, "Rooms"). One-way:
/// the room tells the initiator `negotiation_opened`, or sends it the refusal
/// (a problem_event, E012 when one is active) it also publishes.
struct start_negotiation {
  std::string message_id;
  std::string initiator;
  std::string responder;
  messages::proposal proposal;
  /// Optional; the room generates one when empty.
  std::string intent_id;
  /// Optional overrides of the room's settings for this negotiation (seed
  /// 003's max_rounds, 1..20, and the total timeout); 0 keeps the room's.
  std::int32_t max_rounds = 0;
  std::int64_t expires_in_ms = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, start_negotiation& x) {
  return f(caf::meta::type_name("start_negotiation"),
           optional_field("message_id", x.message_id), field("initiator", x.initiator),
           field("responder", x.responder), field("proposal", x.proposal),
           optional_field("intent_id", x.intent_id),
           optional_field("max_rounds", x.max_rounds),
           optional_field("expires_in_ms", x.expires_in_ms));
}

/// Tells an agent to open a negotiation in `room` with `responder`, proposing
/// `proposal` (the scenario runner and benchmarks use it; an LLM agent decides
/// this by itself). One-way: the outcome is the room's answer to the agent
/// and the events on the bus.
struct initiate_negotiation {
  actors::room_actor room;
  std::string responder;
  messages::proposal proposal;
  std::string intent_id;
  /// The start request's id; empty: the agent numbers it.
  std::string message_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, initiate_negotiation& x) {
  return f(caf::meta::type_name("initiate_negotiation"), optional_field("room", x.room),
           field("responder", x.responder), field("proposal", x.proposal),
           optional_field("intent_id", x.intent_id),
           optional_field("message_id", x.message_id));
}

/// A room tells an initiator that its start request `message_id` opened the
/// negotiation `negotiation_id`.
struct negotiation_opened {
  std::string message_id;
  std::string negotiation_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_opened& x) {
  return f(caf::meta::type_name("negotiation_opened"),
           field("message_id", x.message_id),
           field("negotiation_id", x.negotiation_id));
}

/// What a room checked of a start request: everything needed to open the
/// negotiation.
struct negotiation_opening {
  std::string id;
  std::string room_id;
  std::string intent_id;
  std::string message_id;
  std::string initiator;
  std::string responder;
  messages::proposal proposal;
  negotiation_settings settings;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_opening& x) {
  return f(caf::meta::type_name("negotiation_opening"), field("id", x.id),
           field("room_id", x.room_id), optional_field("intent_id", x.intent_id),
           optional_field("message_id", x.message_id), field("initiator", x.initiator),
           field("responder", x.responder), field("proposal", x.proposal),
           optional_field("settings", x.settings));
}

/// The actors a negotiation works with: its two parties, its room, its
/// node's timer service and the bus.
struct negotiation_peers {
  actors::agent_actor initiator;
  actors::agent_actor responder;
  actors::room_actor room;
  actors::timer_actor timers;
  event_sink events;
  /// Whether each party gets the expired event: only a party that keeps
  /// state per negotiation needs it (see `room_member::hears_expiry`).
  bool initiator_hears_expiry = false;
  bool responder_hears_expiry = false;
  /// How each party values outcomes (see `room_member::valuation`): both
  /// set, over the same domain, the negotiation scores its end.
  shared<party_valuation> initiator_valuation{};
  shared<party_valuation> responder_valuation{};
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, negotiation_peers& x) {
  return f(caf::meta::type_name("negotiation_peers"),
           optional_field("initiator", x.initiator),
           optional_field("responder", x.responder), optional_field("room", x.room),
           optional_field("timers", x.timers), optional_field("events", x.events),
           optional_field("initiator_hears_expiry", x.initiator_hears_expiry),
           optional_field("responder_hears_expiry", x.responder_hears_expiry),
           optional_field("initiator_valuation", x.initiator_valuation),
           optional_field("responder_valuation", x.responder_valuation));
}

/// A room opens a negotiation in one of its node's negotiation actors, a new
/// one or one whose negotiation ended (actors/negotiation/pool.hpp), which
/// carries out the opening: the started event, the opened answer to the
/// initiator, the proposal to the responder, the first timer.
struct open_negotiation {
  negotiation_opening opening;
  /// When the room opened it, in Unix microseconds.
  std::int64_t at_us = 0;
  negotiation_peers peers;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, open_negotiation& x) {
  return f(caf::meta::type_name("open_negotiation"), field("opening", x.opening),
           field("at_us", x.at_us), field("peers", x.peers));
}

/// Crash recovery: a negotiation the store kept open is resumed in a room,
/// which fills in the peers and passes it on to one of its node's
/// negotiation actors. That actor takes the record as it is (no `started`
/// event), re-arms its deadlines and hands the latest offer again to the
/// party whose move it is; a deadline that passed meanwhile expires it at
/// once.
struct resume_negotiation {
  negotiation_record record;
  negotiation_peers peers;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, resume_negotiation& x) {
  return f(caf::meta::type_name("resume_negotiation"), field("record", x.record),
           optional_field("peers", x.peers));
}

/// An agent of a room.
struct room_member {
  std::string agent_id;
  actors::agent_actor agent;
  /// The agent's brain is a language model: the room sets its tools (seed
  /// 001's setTools).
  bool llm = false;
  /// The agent is a stand-in for one on another node (cluster/bridge),
  /// whose bridge forgets a negotiation's route once its end passes by.
  bool remote = false;
  /// How the agent values outcomes, when its profile has a utility: shared
  /// by every room the agent joins.
  shared<party_valuation> valuation{};

  /// Whether the agent's negotiations tell it of their expiry (no agent
  /// message does): an LLM agent keeps state per negotiation, a bridge its
  /// routes; a rule, script or external agent keeps none (each offer comes
  /// with its `answer_terms`), and is spared the message.
  bool hears_expiry() const { return llm || remote; }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, room_member& x) {
  return f(caf::meta::type_name("room_member"), field("agent_id", x.agent_id),
           optional_field("agent", x.agent), optional_field("llm", x.llm),
           optional_field("remote", x.remote),
           optional_field("valuation", x.valuation));
}

/// Adds an agent to a room's participants.
struct join_room {
  room_member member;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, join_room& x) {
  return f(caf::meta::type_name("join_room"), field("member", x.member));
}

/// Travels behind everything a room (and its active negotiation) or an LLM
/// agent has been sent, through the bus, back to `origin`: when it arrives,
/// every event those actors published before it has arrived too (messages
/// between two actors keep their order).
struct barrier {
  std::uint64_t id = 0;
  actors::subscriber_actor origin;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, barrier& x) {
  return f(caf::meta::type_name("barrier"), field("id", x.id),
           optional_field("origin", x.origin));
}

/// Everything needed to build a room, on this node or another one.
struct room_spec {
  std::string id;
  /// The agents (which may be remote).
  std::vector<room_member> members;
  negotiation_settings settings;
  /// Ended negotiations the room keeps.
  std::int32_t history_limit = 100;
  /// Makes the room's generated ids reproducible.
  std::uint64_t seed = 0;
  /// Where the room and its negotiations publish their events.
  event_sink events;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, room_spec& x) {
  return f(caf::meta::type_name("room_spec"), field("id", x.id),
           optional_field("members", x.members), optional_field("settings", x.settings),
           optional_field("history_limit", x.history_limit),
           optional_field("seed", x.seed), optional_field("events", x.events));
}

/// A timer armed with the node's timer service is due: a negotiation's
/// timeout, a ballot's or an auction's window. Its owner ignores a stale
/// `generation` (CAF 0.17 cannot cancel a delayed message, and the actor may
/// have moved on to another negotiation or ballot since).
struct timer_due {
  std::uint64_t generation = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timer_due& x) {
  return f(caf::meta::type_name("timer_due"), field("generation", x.generation));
}

/// Arms a timer with the node's timer service (actors/timer/actor.hpp): the
/// sender gets `timer_due{generation}` at `due_ms` (Unix
/// milliseconds).
struct arm_timer {
  std::int64_t due_ms = 0;
  std::uint64_t generation = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, arm_timer& x) {
  return f(caf::meta::type_name("arm_timer"), field("due_ms", x.due_ms),
           field("generation", x.generation));
}

/// The timer service's wake-up, numbered so that a superseded one is
/// ignored.
struct timer_tick {
  std::uint64_t number = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timer_tick& x) {
  return f(caf::meta::type_name("timer_tick"), field("number", x.number));
}

/// A decision a rule or script agent's brain reached with think time: the
/// agent sends it to `to` when this arrives, unless `answer_by_ms` (the
/// offer's `answer_terms`) passed meanwhile and the negotiation expired.
struct deferred_reply {
  std::string negotiation_id;
  messages::decision decision;
  actors::offer_receiver to;
  std::int64_t answer_by_ms = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, deferred_reply& x) {
  return f(caf::meta::type_name("deferred_reply"),
           field("negotiation_id", x.negotiation_id), field("decision", x.decision),
           optional_field("to", x.to), field("answer_by_ms", x.answer_by_ms));
}

/// An agent's own deadline for a room to answer its start request
/// `message_id`: a room that never answers (its node is gone) does not keep
/// the agent waiting forever.
struct start_deadline {
  std::string message_id;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, start_deadline& x) {
  return f(caf::meta::type_name("start_deadline"), field("message_id", x.message_id));
}

} // namespace parley::messages
