#include "actors/channel/external_member.hpp"

#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"
#include "caf/typed_response_promise.hpp"

#include "messages/channel_messages.hpp"
#include "messages/json.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

using messages::error_code;

struct external_state {
  static inline const char* name = "parley.channel.external_member";
  std::string agent_id;
  std::chrono::milliseconds timeout{0};
  /// Where an answer is committed before it is acknowledged.
  store_actor store;
  /// Where an answer to a channel that asked this member nothing goes.
  answer_router_actor router;
  /// Every channel that asked this member anything, by id.
  std::map<std::string, channel_actor> channels;
  /// The questions not answered yet, by channel id.
  std::map<std::string, messages::demand_offer> offers;
  std::map<std::string, messages::proposal_review> reviews;
  /// The message ids of every answer forwarded: a replay is ignored.
  std::set<std::string> forwarded;
};

using external_pointer = external_member_actor::stateful_pointer<external_state>;

/// `x` as the inbox shows it: the message with its `type`, without
/// the channel's handle.
template <class T> nlohmann::json inbox_entry(const T& x, const char* type) {
  nlohmann::json j = x;
  j.erase("channel");
  j["type"] = type;
  return j;
}

std::string inbox(const external_state& st) {
  auto offers = nlohmann::json::array();
  for (const auto& [id, x] : st.offers)
    offers.push_back(inbox_entry(x, "demand_offer"));
  auto reviews = nlohmann::json::array();
  for (const auto& [id, x] : st.reviews)
    reviews.push_back(inbox_entry(x, "proposal_review"));
  return nlohmann::json{{"agent_id", st.agent_id},
                        {"demand_offers", std::move(offers)},
                        {"proposal_reviews", std::move(reviews)}}
      .dump();
}

/// E007: `channel_id` never asked this member anything, or it has ended.
caf::error unknown_channel(const external_state& st, const std::string& channel_id) {
  return messages::make_error(error_code::channel_not_found,
                              "no channel " + channel_id + " has asked agent " +
                                  st.agent_id + " anything");
}

/// E030: whoever this member asked (`who`) did not answer in time.
caf::error too_slow(const std::string& who, const char* what) {
  return messages::make_error(error_code::overloaded,
                              who + " did not " + what + " in time; retry");
}

/// Answers `rp` with `taken` once every event the store received before is
/// committed (the channel's event of the answer among them: an answer
/// acknowledged over the API survives a crash); with the store's error
/// (E028) when it cannot commit, E030 when it does not answer in time. At
/// once without a store.
void acknowledge(external_pointer self, caf::typed_response_promise<bool> rp,
                 bool taken) {
  auto& st = self->state;
  if (!st.store) {
    rp.deliver(taken);
    return;
  }
  self->request(st.store, st.timeout, messages::flush_atom::value)
      .then([rp, taken](std::int64_t) mutable { rp.deliver(taken); },
            [rp](caf::error& err) mutable {
              rp.deliver(err == caf::sec::request_timeout
                             ? too_slow("the store", "commit")
                             : std::move(err));
            });
}

/// Forwards the answer `x` to the channel whose question, in `pending`, it
/// answers; see external_member_actor.
template <class Answer, class Question>
caf::result<bool> forward(external_pointer self, Answer x,
                          std::map<std::string, Question>& pending, const char* what) {
  auto& st = self->state;
  if (st.forwarded.count(x.message_id) > 0) {
    auto rp = self->template make_response_promise<bool>();
    acknowledge(self, rp, false);
    return rp;
  }
  auto channel = st.channels.find(x.channel_id);
  if (channel == st.channels.end()) {
    if (!st.router)
      return unknown_channel(st, x.channel_id);
    return self->delegate(st.router, std::move(x));
  }
  if (auto invalid = validate(x); !invalid.empty())
    return messages::make_error(error_code::invalid_request, std::move(invalid));
  if (pending.erase(x.channel_id) == 0)
    return messages::make_error(error_code::negotiation_timeout,
                                "channel " + x.channel_id + " awaits no " + what +
                                    " from agent " + st.agent_id + " now");
  st.forwarded.insert(x.message_id);
  auto rp = self->template make_response_promise<bool>();
  auto channel_id = x.channel_id;
  self->request(channel->second, st.timeout, std::move(x))
      .then(
          [self, rp]() mutable { acknowledge(self, rp, true); },
          [rp, channel_id](caf::error& err) mutable {
            if (err == caf::sec::request_timeout)
              rp.deliver(too_slow("channel " + channel_id, "take the answer"));
            else
              rp.deliver(messages::make_error(error_code::channel_not_found,
                                              "channel " + channel_id + " has ended"));
          });
  return rp;
}

external_member_actor::behavior_type external_member(external_pointer self,
                                                     std::string agent_id,
                                                     std::chrono::milliseconds timeout,
                                                     store_actor store,
                                                     answer_router_actor router) {
  self->state.agent_id = std::move(agent_id);
  self->state.timeout = timeout;
  self->state.store = std::move(store);
  self->state.router = std::move(router);
  return {
      [self](const messages::demand_offer& x) {
        auto& st = self->state;
        st.channels[x.channel_id] = x.channel;
        st.reviews.erase(x.channel_id);
        st.offers[x.channel_id] = x;
      },
      [self](const messages::proposal_review& x) {
        auto& st = self->state;
        st.channels[x.channel_id] = x.channel;
        st.offers.erase(x.channel_id);
        st.reviews[x.channel_id] = x;
      },
      [self](caf::get_atom) { return inbox(self->state); },
      [self](messages::answered_atom, const std::vector<std::string>& message_ids) {
        self->state.forwarded.insert(message_ids.begin(), message_ids.end());
      },
      [self](messages::offer_response& x) -> caf::result<bool> {
        return forward(self, std::move(x), self->state.offers, "offer_response");
      },
      [self](messages::proposal_feedback& x) -> caf::result<bool> {
        return forward(self, std::move(x), self->state.reviews, "proposal_feedback");
      },
  };
}

} // namespace

external_member_actor spawn_external_member(caf::actor_system& sys,
                                            std::string agent_id,
                                            std::chrono::milliseconds timeout,
                                            store_actor store,
                                            answer_router_actor router) {
  return sys.spawn(external_member, std::move(agent_id), timeout, std::move(store),
                   std::move(router));
}

} // namespace parley::actors::channel
