#include "service/routes.hpp"

#include <exception>
#include <string>
#include <utility>

#include "messages/json.hpp"
#include "service/bodies.hpp"
#include "service/errors.hpp"
#include "service/exchange.hpp"
#include "service/route_table.hpp"

namespace parley::service {

using messages::error_code;

namespace {

response bad_field(const messages::json_error& e) {
  auto field = e.path();
  return error_response(error_code::invalid_request, e.what(),
                        {{"field", field.empty() ? std::string{"(body)"} : field}});
}

/// Answers `x` by the route its method and path have (route_table.hpp).
void dispatch(exchange& x) {
  const auto& target = x.req.target;
  if (target.empty() || target[0] != '/')
    throw messages::json_error("path", "malformed path");
  auto match = match_route(x.req.method, target);
  if (!match.path)
    return x.no_route();
  if (match.path->rules.after_recovery && !x.st.ready->load())
    return x.respond(busy_response("parley serve is recovering its store"));
  if (!match.found)
    return x.respond(
        not_allowed_response(x.req.method, target, allowed_methods(*match.path)));
  x.params = match.params;
  match.found->handle(x);
}

} // namespace

std::string exchange::param(std::size_t i) const {
  return percent_decode(params[i], false, "path");
}

routes::routes(caf::actor_system& sys, peers to, options opts,
               std::shared_ptr<const std::atomic<bool>> ready)
    : state_(std::make_shared<state>(sys, std::move(to), opts, std::move(ready))) {}

void routes::operator()(request req, respond_function respond) const {
  exchange x{*state_, std::move(req), std::move(respond), {}};
  // A route that threw after handing its answer on (ask_actor moves
  // `respond` away) has answered already, or will.
  auto answer = [&x](response r) {
    if (x.respond)
      x.respond(std::move(r));
  };
  try {
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
