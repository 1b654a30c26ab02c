#include "actors/channel/llm_member.hpp"

#include <chrono>
#include <map>
#include <optional>
#include <utility>
#include <variant>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/channel/member_brain.hpp"
#include "actors/channel/prompts.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/llm/text_reply.hpp"
#include "messages/events.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

/// What a call in flight was made for.
using asked = std::variant<messages::demand_offer, messages::proposal_review>;

struct llm_member_state {
  static inline const char* name = "parley.channel.llm_member";
  messages::channel_member_spec spec;
  messages::event_sink events;
  llm_member_options options;
  std::optional<wall_clock> clock;
  std::uint64_t call_id = 0;
  /// Calls in flight by id.
  std::map<std::uint64_t, asked> pending;
};

using llm_member_pointer = llm_member_actor::stateful_pointer<llm_member_state>;

void problem(llm_member_pointer self, messages::severity level, messages::topic t,
             messages::error_code code, std::string text, std::string message_id) {
  auto& st = self->state;
  if (!st.events.wants(t))
    return;
  publish(self, st.events, t,
          messages::problem_event{level,
                                  code,
                                  "channel member " + st.spec.profile.agent_id + ": " +
                                      std::move(text),
                                  st.clock->now_ms(),
                                  {},
                                  {},
                                  st.spec.profile.agent_id,
                                  std::move(message_id)});
}

/// Sends `prompt` to the model for `what`, with the member's deadline.
void ask(llm_member_pointer self, const llm::text_prompt& prompt, asked what) {
  auto& st = self->state;
  auto id = ++st.call_id;
  st.pending.emplace(id, std::move(what));
  self->send(st.options.model.client, st.options.model.request(id, prompt));
  self->delayed_send(
      self,
      messages::saturating_milliseconds<caf::timespan>(st.options.answer_timeout_ms),
      llm_deadline_atom::value, id);
}

/// Answers the channel with what the model said (`reply`), or with the
/// fallback and a warning naming why.
template <class Answer>
void answer(llm_member_pointer self, const actors::channel_actor& channel,
            Answer read_out, const llm::text_reply& reply, const char* kind) {
  auto& value = read_out.value;
  if (!reply.ok() || read_out.fallback()) {
    auto why = reply.ok() ? read_out.fallback_reason : reply.error;
    auto code = reply.ok() ? messages::error_code::invalid_request : reply.code;
    problem(self, messages::severity::warning, messages::topic::warning, code,
            std::string{kind} + " for " + value.channel_id +
                " answered with the fallback: " + why,
            value.message_id);
  }
  self->send(channel, std::move(value));
}

/// Answers the call `id` (if still pending) from `reply`.
void settle(llm_member_pointer self, std::uint64_t id, const llm::text_reply& reply) {
  auto& st = self->state;
  auto i = st.pending.find(id);
  if (i == st.pending.end())
    return; // answered already (the deadline or a late reply)
  auto what = std::move(i->second);
  st.pending.erase(i);
  const auto& agent_id = st.spec.profile.agent_id;
  if (auto* offer = std::get_if<messages::demand_offer>(&what)) {
    auto message_id =
        member_message_id(offer->channel_id, agent_id, offer->round, "offer");
    answer(self, offer->channel,
           read_offer_response(reply.text, st.spec.profile, *offer, message_id), reply,
           "offer");
  } else {
    auto& review = std::get<messages::proposal_review>(what);
    auto message_id =
        member_message_id(review.channel_id, agent_id, review.round, "feedback");
    answer(self, review.channel,
           read_feedback(reply.text, st.spec.profile, review, message_id), reply,
           "feedback");
  }
}

llm_member_actor::behavior_type llm_member_behavior(llm_member_pointer self,
                                                    messages::channel_member_spec spec,
                                                    messages::event_sink events,
                                                    llm_member_options options) {
  auto& st = self->state;
  st.clock.emplace(self->system());
  st.events = std::move(events);
  st.options = std::move(options);
  st.spec = std::move(spec);
  if (auto invalid = validate(st.spec); !invalid.empty()) {
    problem(self, messages::severity::error, messages::topic::error,
            messages::error_code::invalid_request, invalid, {});
    self->quit();
  }
  return {
      [self](messages::demand_offer& x) {
        auto prompt = offer_prompt(self->state.spec.profile, x);
        ask(self, prompt, std::move(x));
      },
      [self](messages::proposal_review& x) {
        auto prompt = feedback_prompt(self->state.spec.profile, x);
        ask(self, prompt, std::move(x));
      },
      [self](const messages::llm_response& x) {
        settle(self, x.call_id,
               llm::read_text_reply(self->state.options.model.provider, x));
      },
      [self](llm_deadline_atom, std::uint64_t id) {
        llm::text_reply late;
        late.code = messages::error_code::llm_timeout;
        late.error = "no LLM answer within " +
                     std::to_string(self->state.options.answer_timeout_ms) + " ms";
        settle(self, id, late);
      },
  };
}

} // namespace

llm_member_actor spawn_llm_member(caf::actor_system& sys,
                                  messages::channel_member_spec spec,
                                  messages::event_sink events,
                                  llm_member_options options) {
  return sys.spawn(llm_member_behavior, std::move(spec), std::move(events),
                   std::move(options));
}

} // namespace parley::actors::channel
