#pragma once

#include <cstdint>

#include "caf/fwd.hpp"

#include "actors/agent/actor.hpp"
#include "actors/agent/llm_brain.hpp"
#include "messages/agent_profile.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/llm_client.hpp"

namespace parley::actors::agent {

/// An LLM agent takes what every agent takes, its own timers (transcript
/// batching, start deadlines) and its model's answers.
using llm_agent_actor = agent_actor::extend<caf::reacts_to<messages::transcript_flush>,
                                            caf::reacts_to<messages::start_deadline>,
                                            caf::reacts_to<messages::llm_response>>;

/// What an LLM agent needs beyond its spec.
struct llm_agent_options {
  /// The provider's HTTP client (actors/llm/client.hpp).
  llm_client_actor client;
  llm_brain_options brain;
  /// Transcript batching (docs/protocols/llm-agent.md, "Transcript batching"): entries
  /// wait this long after the last one, then go to the model as one user turn.
  std::int64_t batch_window_ms = 2000;
};

/// Spawns an agent whose brain is an LLM (docs/protocols/llm-agent.md).
///
/// It takes the same messages as `spawn_agent`. A proposal or counter becomes a user
/// turn (docs/protocols/llm-agent.md, "Turns"); accepts and rejects too. One model call
/// is in flight at a time: what arrives during a call waits in order. The model answers
/// offers through the evaluate_proposal tool; its text and every tool call are
/// published as `agent_event`s ("agent.message", "agent.tool_call"), every decision as
/// "agent.decision" (with `fallback: true` when the rule brain decided because the
/// model could not). A failed call is also published as a warning (E003 / E004).
///
/// The model is offered the tools its room sets (`set_tools`,
/// docs/protocols/llm-agent.md, "Tools"; none before). A definition the agent has no
/// handler for is left out with an E001 warning. When a negotiation ends (accept,
/// reject, or a terminal `negotiation_event`), offers of it still queued are dropped
/// unseen.
///
/// Transcript entries (from the room) are batched: each one restarts a
/// `batch_window_ms` timer (a delayed `transcript_flush` with a generation), and when
/// it fires the batch goes to the model as one turn. A `negotiation_trigger` (from the
/// room; docs/protocols/llm-agent.md, "Triggers") becomes the trigger's user turn; the
/// model's analyze_and_propose then opens a negotiation in that room with the trigger's
/// responder. A room that does not answer a start within 10 s is reported (E018) and
/// given up.
///
/// A `barrier` is held until the agent is idle (nothing in flight, queued,
/// batched or being opened), then passed to the bus, which returns it to its
/// origin behind the agent's events: the scenario runner waits for LLM
/// agents this way.
llm_agent_actor spawn_llm_agent(caf::actor_system& sys, messages::agent_spec spec,
                                std::int32_t max_rounds, peers with,
                                llm_agent_options options);

} // namespace parley::actors::agent
