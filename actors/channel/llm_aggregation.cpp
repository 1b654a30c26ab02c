#include "actors/channel/llm_aggregation.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/channel/prompts.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/events.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

/// The channel asks its helper for the proposal.
using aggregate_atom = caf::atom_constant<caf::atom("aggregate")>;

/// The helper's own deadline for the model's answer.
using aggregate_late_atom = caf::atom_constant<caf::atom("agg_late")>;

/// One aggregation's helper: asks the model once, answers the channel once,
/// and quits.
using aggregator_actor =
    caf::typed_actor<caf::replies_to<aggregate_atom>::with<messages::channel_proposal>,
                     caf::reacts_to<messages::llm_response>,
                     caf::reacts_to<aggregate_late_atom>>;

/// How much longer than the helper's deadline the channel waits for the
/// helper itself (it answers by its deadline unless it died).
constexpr std::int64_t helper_grace_ms = 1000;

struct aggregator_state {
  static inline const char* name = "parley.channel.llm_aggregation";
  aggregation_input in;
  messages::channel_settings settings;
  aggregation_model model;
  messages::event_sink events;
  caf::typed_response_promise<messages::channel_proposal> promise;
};

using aggregator_pointer = aggregator_actor::stateful_pointer<aggregator_state>;

/// The aggregation's fallback (docs/protocols/channels.md, "Aggregation"): the rule's
/// merge, marked.
messages::channel_proposal merged_by_rule(const aggregation_input& in,
                                          const messages::channel_settings& settings) {
  auto x = aggregate(in, settings);
  x.fallback = true;
  return x;
}

/// Publishes that the channel of `in` merged by rule, and why.
template <class Self>
void warn_fallback(Self* self, const messages::event_sink& events,
                   const aggregation_input& in, messages::error_code code,
                   const std::string& why) {
  if (!events.wants(messages::topic::warning))
    return;
  publish(self, events, messages::topic::warning,
          messages::problem_event{messages::severity::warning,
                                  code,
                                  "channel " + in.channel_id + ": round " +
                                      std::to_string(in.round) +
                                      ": prompt 4 (aggregation) fell back on the "
                                      "rule's merge: " +
                                      why,
                                  wall_clock{self->system()}.now_ms(),
                                  {},
                                  in.channel_id,
                                  {},
                                  {}});
}

/// Answers the channel from `reply` (the model's, or why there is none),
/// once, and quits.
void settle(aggregator_pointer self, const llm::text_reply& reply) {
  auto& st = self->state;
  if (!st.promise.pending())
    return;
  auto read = read_proposal(reply.text, st.in, st.settings);
  if (!reply.ok()) {
    read.value = merged_by_rule(st.in, st.settings);
    warn_fallback(self, st.events, st.in, reply.code, reply.error);
  } else if (read.fallback()) {
    warn_fallback(self, st.events, st.in, messages::error_code::invalid_request,
                  read.fallback_reason);
  }
  st.promise.deliver(std::move(read.value));
  self->quit();
}

aggregator_actor::behavior_type aggregator_behavior(aggregator_pointer self,
                                                    aggregation_input in,
                                                    messages::channel_settings settings,
                                                    aggregation_model model,
                                                    messages::event_sink events) {
  auto& st = self->state;
  st.in = std::move(in);
  st.settings = std::move(settings);
  st.model = std::move(model);
  st.events = std::move(events);
  return {
      [self](aggregate_atom) {
        auto& st = self->state;
        st.promise = self->make_response_promise<messages::channel_proposal>();
        self->send(st.model.model->client,
                   st.model.model->request(1, aggregation_prompt(st.in)));
        self->delayed_send(self,
                           messages::saturating_milliseconds<caf::timespan>(
                               st.model.answer_timeout_ms),
                           aggregate_late_atom::value);
        return st.promise;
      },
      [self](const messages::llm_response& x) {
        settle(self, llm::read_text_reply(self->state.model.model->provider, x));
      },
      [self](aggregate_late_atom) {
        llm::text_reply late;
        late.code = messages::error_code::llm_timeout;
        late.error = "no LLM answer within " +
                     std::to_string(self->state.model.answer_timeout_ms) + " ms";
        settle(self, late);
      },
  };
}

} // namespace

std::int64_t aggregation_timeout_ms(const messages::channel_settings& settings) {
  return std::min(settings.response_timeout_ms, settings.feedback_timeout_ms) / 2;
}

void aggregate_by_model(channel_actor::base* self, aggregation_input in,
                        const messages::channel_settings& settings,
                        const aggregation_model& model,
                        const messages::event_sink& events,
                        std::function<void(messages::channel_proposal)> done) {
  auto helper = self->system().spawn(aggregator_behavior, in, settings, model, events);
  auto wait = messages::saturating_milliseconds<caf::timespan>(
      messages::saturating_add(model.answer_timeout_ms, helper_grace_ms));
  self->request(helper, wait, aggregate_atom::value)
      .then([done](messages::channel_proposal& x) { done(std::move(x)); },
            [self, done, in, settings, events](caf::error& e) {
              warn_fallback(self, events, in, messages::error_code::llm_timeout,
                            "the aggregation gave no answer: " +
                                self->system().render(e));
              done(merged_by_rule(in, settings));
            });
}

} // namespace parley::actors::channel
