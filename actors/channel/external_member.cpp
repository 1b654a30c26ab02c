#include "actors/channel/external_member.hpp"

#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

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
  /// Where the answers to channels that ended before a restart are found.
  store_actor store;
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

/// An answer to a channel this member does not know: a replay (false) when
/// the store holds it among the channel's events (the channel ended before
/// a restart), otherwise E007; the store's own error when it cannot say, or
/// E030 when it did not answer in time.
caf::result<bool> look_up(external_pointer self, const std::string& channel_id,
                          const std::string& message_id) {
  auto& st = self->state;
  if (!st.store)
    return unknown_channel(st, channel_id);
  auto rp = self->make_response_promise<bool>();
  self->request(st.store, st.timeout, messages::load_atom::value,
                messages::channel_atom::value, channel_id)
      .then(
          [self, rp, channel_id,
           message_id](const std::vector<messages::channel_event>& events) mutable {
            auto& st = self->state;
            if (!answered_in(events, st.agent_id, message_id)) {
              rp.deliver(unknown_channel(st, channel_id));
              return;
            }
            st.forwarded.insert(message_id);
            rp.deliver(false);
          },
          [rp](caf::error& err) mutable {
            rp.deliver(err == caf::sec::request_timeout
                           ? too_slow("the store", "answer")
                           : std::move(err));
          });
  return rp;
}

/// Forwards the answer `x` to the channel whose question, in `pending`, it
/// answers; see external_member_actor.
template <class Answer, class Question>
caf::result<bool> forward(external_pointer self, Answer x,
                          std::map<std::string, Question>& pending, const char* what) {
  auto& st = self->state;
  if (st.forwarded.count(x.message_id) > 0)
    return false;
  auto channel = st.channels.find(x.channel_id);
  if (channel == st.channels.end())
    return look_up(self, x.channel_id, x.message_id);
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
          [rp]() mutable { rp.deliver(true); },
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
                                                     store_actor store) {
  self->state.agent_id = std::move(agent_id);
  self->state.timeout = timeout;
  self->state.store = std::move(store);
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
                                            store_actor store) {
  return sys.spawn(external_member, std::move(agent_id), timeout, std::move(store));
}

} // namespace parley::actors::channel
