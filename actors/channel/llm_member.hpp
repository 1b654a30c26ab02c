#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

#include "actors/llm/text_reply.hpp"
#include "messages/channel_member.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/channel.hpp"

namespace parley::actors::channel {

/// An LLM member's own deadline for one model call (with the call's id).
using llm_deadline_atom = caf::atom_constant<caf::atom("llm_late")>;

/// An LLM member takes what every member takes, its model's answers and its
/// own call deadlines.
using llm_member_actor =
    channel_member_actor::extend<caf::reacts_to<messages::llm_response>,
                                 caf::reacts_to<llm_deadline_atom, std::uint64_t>>;

/// How an LLM member reaches its model.
struct llm_member_options {
  /// The model and its client (actors/llm/client.hpp): the client's
  /// circuit breaker and concurrency budget apply to the member's calls as
  /// to an LLM agent's.
  llm::prompt_model model;
  /// How long the member waits for the client's answer before it answers
  /// the channel with the fallback (a late answer is then ignored). The
  /// client answers every call itself (its timeout, retries, breaker); this
  /// guards against a client that does not.
  std::int64_t answer_timeout_ms = 60000;
};

/// Spawns a channel member whose brain is an LLM
/// (docs/protocols/channels.md, "Member brains": prompts 3 and 5,
/// actors/channel/prompts.hpp).
///
/// Each `demand_offer` is put to the model as prompt 3 and answered with the
/// `offer_response` read_offer_response makes of its answer; each
/// `proposal_review` as prompt 5, answered with read_feedback's
/// `proposal_feedback`. Calls go to the client at once, any number in flight
/// (the client queues beyond its budget), so the member never waits: one
/// member serves any number of channels. The answer goes to the channel the
/// message names, with member_brain.hpp's message ids.
///
/// When the call fails (E003: unavailable or circuit open; E004: timeout),
/// is not answered within `answer_timeout_ms` (E004), or its answer is
/// unusable (E001), the member answers with the prompt's fallback and
/// publishes a warning naming the reason on `events` (agent_id: the member,
/// message_id: the fallback answer's id). A spec that `validate` refuses is
/// published as a problem (E001) and the actor stops at once.
llm_member_actor spawn_llm_member(caf::actor_system& sys,
                                  messages::channel_member_spec spec,
                                  messages::event_sink events,
                                  llm_member_options options);

} // namespace parley::actors::channel
