#include "service/routes.hpp"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "messages/json.hpp"
#include "messages/store.hpp"
#include "messages/type_ids.hpp"
#include "service/bodies.hpp"
#include "service/channel_routes.hpp"
#include "service/dashboard.hpp"
#include "service/errors.hpp"
#include "service/exchange.hpp"
#include "service/sse_routes.hpp"

namespace parley::service {

using messages::error_code;
using nlohmann::json;

namespace {

/// Splits a path into its percent-decoded segments (json_error when an
/// escape is malformed).
std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> out;
  std::size_t begin = 1;
  while (begin <= path.size()) {
    auto end = path.find('/', begin);
    if (end == std::string::npos)
      end = path.size();
    out.push_back(percent_decode(path.substr(begin, end - begin), false, "path"));
    begin = end + 1;
  }
  if (!out.empty() && out.back().empty())
    out.pop_back(); // a trailing slash
  return out;
}

response bad_field(const messages::json_error& e) {
  auto field = e.path();
  return error_response(error_code::invalid_request, e.what(),
                        {{"field", field.empty() ? std::string{"(body)"} : field}});
}

void agents(exchange& x) {
  const auto& m = x.req.method;
  if (x.path.size() == 3) {
    if (m == "POST")
      return x.ask<messages::agent_spec>(201, caf::put_atom::value,
                                         read_agent(parse_body(x.req.body)));
    if (m == "GET")
      return x.ask_then<std::vector<messages::agent_spec>>(
          [](std::vector<messages::agent_spec>& xs) {
            return json_response(200, json{{"agents", xs}});
          },
          messages::list_atom::value, messages::agent_atom::value);
    return x.not_allowed("GET, POST");
  }
  if (x.path.size() == 4) {
    const auto& id = x.path[3];
    if (m == "GET")
      return x.ask<messages::agent_spec>(200, caf::get_atom::value,
                                         messages::agent_atom::value, id);
    if (m == "DELETE")
      return x.ask<messages::agent_spec>(200, caf::delete_atom::value,
                                         messages::agent_atom::value, id);
    return x.not_allowed("GET, DELETE");
  }
  if (x.path.size() == 5 && x.path[4] == "inbox")
    return agent_inbox(x, x.path[3]);
  if (x.path.size() == 5 && x.path[4] == "turns") {
    if (m == "GET")
      return x.ask_then<std::vector<messages::negotiation_record>>(
          [](std::vector<messages::negotiation_record>& xs) {
            return json_response(200, json{{"negotiations", xs}});
          },
          messages::list_atom::value, messages::turns_atom::value, x.path[3]);
    return x.not_allowed("GET");
  }
  x.respond(error_response(error_code::route_not_found, "no such route"));
}

void rooms(exchange& x) {
  const auto& m = x.req.method;
  if (x.path.size() == 3) {
    if (m == "POST")
      return x.ask<messages::room_view>(201, caf::put_atom::value,
                                        read_room(parse_body(x.req.body)));
    return x.not_allowed("POST");
  }
  if (x.path.size() == 4) {
    if (m == "GET")
      return x.ask<messages::room_view>(200, caf::get_atom::value,
                                        messages::room_atom::value, x.path[3]);
    return x.not_allowed("GET");
  }
  x.respond(error_response(error_code::route_not_found, "no such route"));
}

void post_move(exchange& x, const std::string& id) {
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

std::string query_of(const std::string& target) {
  auto at = target.find('?');
  return at == std::string::npos ? std::string{} : target.substr(at + 1);
}

void negotiations(exchange& x) {
  const auto& m = x.req.method;
  if (x.path.size() >= 4)
    check_uuid(x.path[3], "id");
  if (x.path.size() == 3) {
    if (m == "POST") {
      auto body = read_negotiation(parse_body(x.req.body));
      return x.ask<messages::negotiation_record>(
          201, caf::put_atom::value, std::move(body.room_id), std::move(body.start));
    }
    if (m == "GET")
      return x.ask_actor<messages::store_page>(
          x.st.to.store,
          [](messages::store_page& page) { return json_response(200, json(page)); },
          messages::query_atom::value, read_query(query_of(x.req.target)));
    return x.not_allowed("GET, POST");
  }
  if (x.path.size() == 4) {
    if (m == "GET")
      return x.ask<messages::negotiation_record>(200, caf::get_atom::value, x.path[3]);
    return x.not_allowed("GET");
  }
  if (x.path.size() == 5 && x.path[4] == "messages") {
    if (m == "POST")
      return post_move(x, x.path[3]);
    return x.not_allowed("POST");
  }
  x.respond(error_response(error_code::route_not_found, "no such route"));
}

/// 503 E030 with Retry-After: `why`, retry shortly.
response busy(const std::string& why) {
  auto r = error_response(error_code::overloaded, why + "; retry shortly");
  r.retry_after_s = retry_after_busy_s;
  return r;
}

void dispatch(exchange& x) {
  const auto& p = x.path;
  const auto& m = x.req.method;
  if (p.size() == 1 && (p[0] == "healthz" || p[0] == "readyz")) {
    if (m != "GET")
      return x.not_allowed("GET");
    if (p[0] == "healthz")
      return x.respond(json_response(200, {{"status", "ok"}}));
    if (!x.st.ready->load())
      return x.respond(busy("parley serve is recovering its store, or stopping"));
    return x.ask_actor<std::string>(
        x.st.to.store,
        [](const std::string& failure) {
          if (failure.empty())
            return json_response(200, {{"status", "ready"}});
          auto r = error_response(error_code::store_failed, "the store " + failure);
          r.retry_after_s = retry_after_busy_s;
          return r;
        },
        messages::ping_atom::value);
  }
  if (p.size() >= 3 && p[0] == "api" && p[1] == "v1") {
    // Before recovery ends, an open negotiation may not be back yet.
    if (!x.st.ready->load())
      return x.respond(busy("parley serve is recovering its store"));
    if (p[2] == "agents")
      return agents(x);
    if (p[2] == "rooms")
      return rooms(x);
    if (p[2] == "negotiations")
      return negotiations(x);
    if (p[2] == "demand" || p[2] == "demands")
      return demands(x);
    if (p[2] == "channels")
      return channels(x);
    if (p[2] == "events" && x.st.to.events)
      return event_streams(x);
    if (p.size() == 3 && p[2] == "stats") {
      if (m != "GET")
        return x.not_allowed("GET");
      return x.ask_actor<messages::store_stats>(
          x.st.to.store,
          [](messages::store_stats& stats) { return json_response(200, json(stats)); },
          messages::stats_atom::value);
    }
    if (p.size() == 4 && p[2] == "maintenance" && p[3] == "expire") {
      if (m != "POST")
        return x.not_allowed("POST");
      if (!x.req.body.empty() && !parse_body(x.req.body).empty())
        throw messages::json_error({}, "expire takes no fields");
      return x.ask_actor<std::int64_t>(
          x.st.to.store,
          [](std::int64_t& expired) {
            return json_response(200, json{{"expired", expired}});
          },
          messages::expire_atom::value);
    }
  }
  x.respond(error_response(error_code::route_not_found,
                           "no route " + x.req.method + " " + x.req.target));
}

} // namespace

routes::routes(caf::actor_system& sys, peers to, options opts,
               std::shared_ptr<const std::atomic<bool>> ready)
    : state_(std::make_shared<state>(sys, std::move(to), opts, std::move(ready))) {}

void routes::operator()(request req, respond_function respond) const {
  exchange x{*state_, std::move(req), std::move(respond), {}};
  auto path = x.req.target.substr(0, x.req.target.find('?'));
  // A route that threw after handing its answer on (ask_actor moves
  // `respond` away) has answered already, or will.
  auto answer = [&x](response r) {
    if (x.respond)
      x.respond(std::move(r));
  };
  try {
    if (path.empty() || path[0] != '/')
      throw messages::json_error("path", "malformed path");
    if (auto file = dashboard_response(x.req.method, path))
      return x.respond(std::move(*file));
    x.path = split_path(path);
    dispatch(x);
  } catch (const messages::json_error& e) {
    answer(bad_field(e));
  } catch (const std::exception& e) {
    // Never expected: whatever a route throws must not reach the I/O
    // thread; the request applied nothing (nothing was asked yet).
    answer(
        error_response(error_code::internal_error,
                       std::string{"the server failed on this request: "} + e.what()));
  }
}

} // namespace parley::service
