#include "actors/channel/answer_router.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"
#include "caf/typed_response_promise.hpp"

#include "actors/channel/snapshot.hpp"
#include "actors/common/relay_links.hpp"
#include "messages/channel_messages.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

using messages::error_code;

struct router_state {
  static inline const char* name = "parley.channel.answer_router";
  answer_router_options options;
  /// The relays of the other nodes, and the answers forwarded to each.
  relay_links relays;
};

using router_pointer = answer_router_actor::stateful_pointer<router_state>;
using taken_promise = caf::typed_response_promise<bool>;

/// The ids of answer `x`, for its errors' details.
template <class Answer> nlohmann::json ids_of(const Answer& x) {
  return {{"channel_id", x.channel_id},
          {"agent_id", x.agent_id},
          {"message_id", x.message_id}};
}

/// Whether `events` hold an answer of `agent_id` with `message_id`.
bool answered_in(const std::vector<messages::channel_event>& events,
                 const std::string& agent_id, const std::string& message_id) {
  auto found = false;
  for (const auto& e : events)
    messages::visit_answer(e, [&](const std::string& agent, const std::string& id) {
      found = found || (agent == agent_id && id == message_id);
    });
  return found;
}

/// Whether the channel of `events` is open and waits for an answer of
/// `agent_id`: its offer while it collects them, its feedback while it
/// collects those, or either while it passes from one to the other.
bool awaits(const std::vector<messages::channel_event>& events,
            const std::string& agent_id) {
  auto x = fold(events);
  if (!x || is_terminal(x->status))
    return false;
  switch (x->status) {
  case channel_status::collecting:
    return x->invited.count(agent_id) > 0 && x->offers.count(agent_id) == 0;
  case channel_status::negotiating:
    return x->participants.count(agent_id) > 0 &&
           std::none_of(x->feedback.begin(), x->feedback.end(),
                        [&](const auto& f) { return f.agent_id == agent_id; });
  default:
    return std::any_of(x->setup.candidates.begin(), x->setup.candidates.end(),
                       [&](const auto& c) { return c.agent_id == agent_id; });
  }
}

/// E007: channel `channel_id` never asked `agent_id` anything, or it ended.
caf::error not_asked(const std::string& channel_id, const std::string& agent_id) {
  return messages::make_error(error_code::channel_not_found,
                              "no channel " + channel_id + " has asked agent " +
                                  agent_id + " anything");
}

/// The store's error, or E030 when it did not answer in time.
caf::error store_failure(caf::error err) {
  if (err == caf::sec::request_timeout)
    return messages::make_error(error_code::overloaded,
                                "the store did not answer in time; retry");
  return err;
}

/// Answers `rp` from the stored events of answer `x`'s channel (see
/// answer_router_actor).
template <class Answer>
void look_up(router_pointer self, taken_promise rp, const Answer& x) {
  auto& st = self->state;
  self->request(st.options.store, st.options.timeout, messages::load_atom::value,
                messages::channel_atom::value, x.channel_id)
      .then(
          [self, rp, x](const std::vector<messages::channel_event>& events) mutable {
            if (answered_in(events, x.agent_id, x.message_id))
              rp.deliver(false);
            else if (self->state.options.clustered && awaits(events, x.agent_id))
              rp.deliver(messages::make_error(
                  error_code::overloaded,
                  "channel " + x.channel_id +
                      " runs on no live node of the cluster yet (its node died "
                      "and it is being taken over); retry",
                  ids_of(x).dump()));
            else
              rp.deliver(not_asked(x.channel_id, x.agent_id));
          },
          [rp](caf::error& err) mutable { rp.deliver(store_failure(std::move(err))); });
}

/// Answer `x` on its way to the node that runs its channel
/// (actors/common/relay_links.hpp's `Request`), answered through `promise`.
template <class Answer> struct forwarded_answer {
  using answer_type = bool;
  taken_promise promise;
  Answer x;

  bool resendable() const { return true; }

  auto ask(router_pointer self, const move_relay_actor& relay,
           std::chrono::milliseconds timeout) const {
    return self->request(relay, timeout, x);
  }

  /// A replay answered to a sending after the first is the first's answer
  /// (it was taken, and its answer lost with the connection).
  void deliver(bool taken, int sent) { promise.deliver(taken || sent > 0); }

  void refuse(caf::error err, int) { promise.deliver(std::move(err)); }

  void unreachable(const std::string& address, const std::string& why) {
    promise.deliver(relay_unreachable("channel " + x.channel_id + " runs", ids_of(x),
                                      address, why));
  }
};

template <class Answer> caf::result<bool> route(router_pointer self, Answer& x) {
  auto& st = self->state;
  if (!st.options.store)
    return not_asked(x.channel_id, x.agent_id);
  auto rp = self->make_response_promise<bool>();
  if (!st.options.clustered || !st.options.connector) {
    look_up(self, rp, x);
    return rp;
  }
  self->request(st.options.store, st.options.timeout, messages::owner_atom::value,
                messages::channel_atom::value, x.channel_id)
      .then(
          [self, rp, x = std::move(x)](const std::string& address) mutable {
            auto& st = self->state;
            if (address.empty())
              look_up(self, rp, x);
            else
              forward_to_relay(self, st.relays, st.options.connector,
                               st.options.timeout, address,
                               forwarded_answer<Answer>{rp, std::move(x)});
          },
          [rp](caf::error& err) mutable { rp.deliver(store_failure(std::move(err))); });
  return rp;
}

answer_router_actor::behavior_type router(router_pointer self,
                                          answer_router_options options) {
  self->state.options = std::move(options);
  // A relay of another node went down: its node was lost.
  self->set_down_handler([self](caf::down_msg& x) {
    self->state.relays.lose(x.source, "its node was lost");
  });
  return {
      [self](messages::offer_response& x) { return route(self, x); },
      [self](messages::proposal_feedback& x) { return route(self, x); },
  };
}

} // namespace

answer_router_actor spawn_answer_router(caf::actor_system& sys,
                                        answer_router_options options) {
  return sys.spawn(router, std::move(options));
}

} // namespace parley::actors::channel
