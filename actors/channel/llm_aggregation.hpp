#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "caf/fwd.hpp"

#include "actors/channel/aggregation.hpp"
#include "actors/llm/text_reply.hpp"
#include "messages/channel.hpp"
#include "messages/channel_settings.hpp"
#include "messages/event_sink.hpp"
#include "messages/handles/channel.hpp"

namespace parley::actors::channel {

/// The model a channel asks for its proposals (prompt 4,
/// docs/protocols/channels.md, "Aggregation"): set when the coordinator's brain is the
/// LLM.
struct aggregation_model {
  /// The model and the world's client of it, shared with the coordinator
  /// and the LLM members, so that the client's circuit breaker and
  /// concurrency budget cover these calls too. Null (or no client): the
  /// channel merges by rule (aggregate) and sends no extra message; a
  /// pointer, so that a rule channel's peers stay as cheap to copy as before.
  std::shared_ptr<const llm::prompt_model> model;
  /// How long the channel waits for the model's proposal before it merges
  /// by rule instead.
  std::int64_t answer_timeout_ms = 60000;

  /// Whether there is a model to ask.
  bool used() const noexcept { return model && model->client; }
};

/// How long a model may take to aggregate for a channel of `settings`: half
/// its shorter collection timeout, as an LLM member's answer.
std::int64_t aggregation_timeout_ms(const messages::channel_settings& settings);

/// Asks `model` (prompt 4, aggregation_prompt) for the proposal of `in` and
/// calls `done` with it inside `self` (the channel), which handles its other
/// messages meanwhile.
///
/// The call is made by a helper actor spawned for it, which the channel
/// `request`s, so that the channel's interface does not change. When the
/// call fails (E003: unavailable or circuit open; E004: timeout), no answer
/// comes within `model.answer_timeout_ms` (E004), or the answer is unusable
/// (E001), `done` gets the aggregation's fallback, the
/// rule's merge (aggregate) marked `fallback`, and a warning naming the
/// reason is published on `events` (negotiation_id: the channel).
void aggregate_by_model(channel_actor::base* self, aggregation_input in,
                        const messages::channel_settings& settings,
                        const aggregation_model& model,
                        const messages::event_sink& events,
                        std::function<void(messages::channel_proposal)> done);

} // namespace parley::actors::channel
