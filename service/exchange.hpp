#pragma once

// What the route files share: the routes' state and one request on its way
// (routes.cpp and the routes of route_table.cpp).

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "messages/handles/coordinator.hpp"
#include "messages/handles/gateway.hpp"
#include "messages/handles/store.hpp"
#include "service/call.hpp"
#include "service/channel_members.hpp"
#include "service/errors.hpp"
#include "service/message.hpp"
#include "service/requesters.hpp"
#include "service/route_table.hpp"
#include "service/routes.hpp"

namespace parley::service {

struct routes::state {
  state(caf::actor_system& sys, routes::peers to, routes::options opts,
        std::shared_ptr<const std::atomic<bool>> ready)
      : to(std::move(to)), opts(opts), ready(std::move(ready)),
        requesters(sys, opts.requesters, opts.timeout) {}

  routes::peers to;
  routes::options opts;
  std::shared_ptr<const std::atomic<bool>> ready;
  /// Requests waiting for the runtime now.
  mutable std::atomic<std::size_t> waiting{0};
  mutable requester_pool requesters;
};

/// A response with `status` and the JSON `body`.
inline response json_response(unsigned status, const nlohmann::json& body) {
  return response{status, body.dump(), 0, {}};
}

/// One request on its way: its route's parameters and how to answer.
struct exchange {
  const routes::state& st;
  request req;
  respond_function respond;
  /// The `{name}` segments of the route's path as sent (views into
  /// `req.target`).
  route_params params{};

  /// Parameter `i`, percent-decoded; throws json_error at "path" when an
  /// escape is malformed or the result is not UTF-8 (bodies.hpp).
  std::string param(std::size_t i) const;

  /// Asks the gateway; answers `status` with `to_json(result)`.
  template <class Result, class... Ts> void ask(unsigned status, Ts... xs) {
    ask_then<Result>(
        [status](Result& x) { return json_response(status, nlohmann::json(x)); },
        std::move(xs)...);
  }

  template <class Result, class OnResult, class... Ts>
  void ask_then(OnResult on_result, Ts... xs) {
    ask_actor<Result>(st.to.gateway, std::move(on_result), std::move(xs)...);
  }

  /// Asks `dest` (the gateway, the store, the coordinator or an external
  /// channel member), bounded by the routes' timeout; at most
  /// `max_in_flight` requests wait at once (then 503, E030). Only the store
  /// may be missing (a `parley run --serve` or `bench --serve` without
  /// `--store`): 503 E028 then.
  template <class Result, class Dest, class OnResult, class... Ts>
  void ask_actor(const Dest& dest, OnResult on_result, Ts... xs) {
    if (!dest) {
      respond(error_response(messages::error_code::store_failed,
                             "this process keeps no store: run it with --store to "
                             "query stored negotiations and channels"));
      return;
    }
    auto& waiting = st.waiting;
    if (waiting.fetch_add(1) >= st.opts.max_in_flight) {
      --waiting;
      respond(error_response(messages::error_code::overloaded,
                             "too many requests in flight (" +
                                 std::to_string(st.opts.max_in_flight) + "); retry",
                             {{"max_in_flight", st.opts.max_in_flight}}));
      return;
    }
    auto done = [&waiting, respond = std::move(respond)](response r) {
      --waiting;
      respond(std::move(r));
    };
    call<Result>(st.requesters, dest, std::move(done), std::move(on_result),
                 std::move(xs)...);
  }

  /// Answers 404 (E032): no route has this method and path (or the route's
  /// part of the runtime is not there).
  void no_route() {
    respond(error_response(messages::error_code::route_not_found,
                           "no route " + req.method + " " + req.target));
  }
};

} // namespace parley::service
