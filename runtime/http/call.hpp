#pragma once

#include <chrono>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"

#include "runtime/http/errors.hpp"
#include "runtime/http/message.hpp"

namespace parley::runtime::http {

/// Asks `dest` for `Result` by request/response, bounded by `timeout`, and
/// answers `respond` with `on_result(result)`, or the error's body. The
/// request runs in a short-lived actor of its own, so that no I/O thread
/// waits and no scheduler thread blocks: the answer, whenever it comes,
/// goes straight to the connection.
template <class Result, class Handle, class OnResult, class... Ts>
void call(caf::actor_system& sys, const Handle& dest, std::chrono::milliseconds timeout,
          respond_function respond, OnResult on_result, Ts... xs) {
  // The request travels as the actor's spawn arguments (CAF 0.17 fails on a
  // function-based actor spawned without any).
  auto ask = [dest, timeout, respond = std::move(respond),
              on_result = std::move(on_result)](caf::event_based_actor* self,
                                                Ts... ys) {
    self->request(dest, timeout, std::move(ys)...)
        .then([respond, on_result](Result& x) { respond(on_result(x)); },
              [respond](caf::error& err) { respond(error_response(err)); });
  };
  sys.spawn(std::move(ask), std::move(xs)...);
}

} // namespace parley::runtime::http
