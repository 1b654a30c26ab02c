#include "service/channel_routes.hpp"

#include <string>
#include <utility>

#include "messages/json.hpp"
#include "messages/store.hpp"
#include "messages/type_ids.hpp"
#include "service/bodies.hpp"
#include "service/channel_bodies.hpp"
#include "service/exchange.hpp"

namespace parley::service {

using messages::error_code;
using nlohmann::json;

namespace {

/// The external member of `agent_id`, or an unset handle after answering
/// 404 (E008).
actors::external_member_actor member_of(exchange& x, const std::string& agent_id) {
  const auto& members = x.st.to.members;
  auto member = members ? members->find(agent_id) : actors::external_member_actor{};
  if (!member)
    x.respond(error_response(error_code::agent_not_found,
                             "no external channel member " + agent_id +
                                 " (register the agent with an external brain and "
                                 "capabilities)",
                             {{"agent_id", agent_id}}));
  return member;
}

/// The answer to an answer of an external member: 200 once the channel took
/// it, or, for a replayed message id, 200 with E011 (ignored).
auto answered(const std::string& channel_id, const std::string& message_id) {
  return [channel_id, message_id](bool taken) {
    if (taken)
      return json_response(200, {{"status", "accepted"},
                                 {"channel_id", channel_id},
                                 {"message_id", message_id}});
    return error_response(error_code::duplicate_message,
                          "message " + message_id + " was already taken; ignored",
                          {{"channel_id", channel_id}, {"message_id", message_id}});
  };
}

/// Hands `answer` to its agent's external member. On a cluster's node, an
/// agent without a member here goes to the node's answer router: its
/// channel may run on another node (docs/cluster.md, "Any node answers").
template <class Answer> void post_answer(exchange& x, Answer answer) {
  auto on_taken = answered(answer.channel_id, answer.message_id);
  const auto& members = x.st.to.members;
  if (members && x.st.to.cluster) {
    x.ask_actor<bool>(members->taker(answer.agent_id), std::move(on_taken),
                      std::move(answer));
    return;
  }
  auto member = member_of(x, answer.agent_id);
  if (!member)
    return;
  x.ask_actor<bool>(member, std::move(on_taken), std::move(answer));
}

} // namespace

void submit_demand(exchange& x) {
  x.ask_actor<messages::demand_receipt>(
      x.st.to.coordinator,
      [](messages::demand_receipt& r) { return json_response(200, json(r)); },
      read_demand(parse_body(x.req.body)));
}

void get_demand(exchange& x) {
  auto id = x.param(0);
  check_id(id, "id");
  x.ask_actor<messages::demand_view>(
      x.st.to.coordinator,
      [](messages::demand_view& v) { return json_response(200, json(v)); },
      caf::get_atom::value, std::move(id));
}

void get_channel(exchange& x) {
  auto id = x.param(0);
  check_id(id, "id");
  x.ask_actor<messages::channel_record>(
      x.st.to.store,
      [](messages::channel_record& r) { return json_response(200, json(r)); },
      messages::get_atom::value, messages::channel_atom::value, std::move(id));
}

void post_channel_message(exchange& x) {
  auto id = x.param(0);
  check_id(id, "id");
  auto body = read_channel_message(parse_body(x.req.body), id);
  if (body.is_offer)
    return post_answer(x, std::move(body.offer));
  post_answer(x, std::move(body.feedback));
}

void agent_inbox(exchange& x) {
  auto member = member_of(x, x.param(0));
  if (!member)
    return;
  x.ask_actor<std::string>(
      member,
      [](std::string& inbox) {
        return response{200, std::move(inbox), 0, {}};
      },
      caf::get_atom::value);
}

} // namespace parley::service
