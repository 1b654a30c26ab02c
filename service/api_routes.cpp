#include "service/api_routes.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "messages/json.hpp"
#include "messages/store.hpp"
#include "messages/type_ids.hpp"
#include "service/bodies.hpp"
#include "service/exchange.hpp"

namespace parley::service {

using nlohmann::json;

namespace {

std::string query_of(const std::string& target) {
  auto at = target.find('?');
  return at == std::string::npos ? std::string{} : target.substr(at + 1);
}

/// The `{id}` of a negotiation's path, which is a UUID (else json_error).
std::string negotiation_id(const exchange& x) {
  auto id = x.param(0);
  check_uuid(id, "id");
  return id;
}

} // namespace

void list_agents(exchange& x) {
  x.ask_then<std::vector<messages::agent_spec>>(
      [](std::vector<messages::agent_spec>& xs) {
        return json_response(200, json{{"agents", xs}});
      },
      messages::list_atom::value, messages::agent_atom::value);
}

void add_agent(exchange& x) {
  x.ask<messages::agent_spec>(201, caf::put_atom::value,
                              read_agent(parse_body(x.req.body)));
}

void get_agent(exchange& x) {
  x.ask<messages::agent_spec>(200, caf::get_atom::value, messages::agent_atom::value,
                              x.param(0));
}

void delete_agent(exchange& x) {
  x.ask<messages::agent_spec>(200, caf::delete_atom::value, messages::agent_atom::value,
                              x.param(0));
}

void agent_turns(exchange& x) {
  x.ask_then<std::vector<messages::negotiation_record>>(
      [](std::vector<messages::negotiation_record>& xs) {
        return json_response(200, json{{"negotiations", xs}});
      },
      messages::list_atom::value, messages::turns_atom::value, x.param(0));
}

void add_room(exchange& x) {
  x.ask<messages::room_view>(201, caf::put_atom::value,
                             read_room(parse_body(x.req.body)));
}

void get_room(exchange& x) {
  x.ask<messages::room_view>(200, caf::get_atom::value, messages::room_atom::value,
                             x.param(0));
}

void list_negotiations(exchange& x) {
  x.ask_actor<messages::store_page>(
      x.st.to.store,
      [](messages::store_page& page) { return json_response(200, json(page)); },
      messages::query_atom::value, read_query(query_of(x.req.target)));
}

void start_negotiation(exchange& x) {
  auto body = read_negotiation(parse_body(x.req.body));
  x.ask<messages::negotiation_record>(201, caf::put_atom::value,
                                      std::move(body.room_id), std::move(body.start));
}

void get_negotiation(exchange& x) {
  x.ask<messages::negotiation_record>(200, caf::get_atom::value, negotiation_id(x));
}

void post_move(exchange& x) {
  auto id = negotiation_id(x);
  auto body = read_move(parse_body(x.req.body), id);
  switch (body.action) {
  case messages::round_action::counter:
    return x.ask<messages::negotiation_record>(200, std::move(body.counter));
  case messages::round_action::accept:
    return x.ask<messages::negotiation_record>(200, std::move(body.accept));
  default:
    return x.ask<messages::negotiation_record>(200, std::move(body.reject));
  }
}

void stats(exchange& x) {
  x.ask_actor<messages::store_stats>(
      x.st.to.store,
      [](messages::store_stats& s) { return json_response(200, json(s)); },
      messages::stats_atom::value);
}

void expire(exchange& x) {
  if (!x.req.body.empty() && !parse_body(x.req.body).empty())
    throw messages::json_error({}, "expire takes no fields");
  x.ask_actor<std::int64_t>(
      x.st.to.store,
      [](std::int64_t& expired) {
        return json_response(200, json{{"expired", expired}});
      },
      messages::expire_atom::value);
}

} // namespace parley::service
