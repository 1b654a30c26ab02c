#pragma once

#include <exception>
#include <string>
#include <utility>

#include "caf/typed_event_based_actor.hpp"

#include "service/errors.hpp"
#include "service/message.hpp"
#include "service/requesters.hpp"

namespace parley::service {

/// Answers `respond` with `make()`; what escapes it (an answer JSON cannot
/// encode) is E001, since a requester must survive every answer.
template <class Make> void answer(const respond_function& respond, Make make) {
  response r;
  try {
    r = make();
  } catch (const std::exception& e) {
    r = error_response(messages::error_code::invalid_request,
                       std::string{"the answer cannot be encoded as JSON: "} +
                           e.what());
  }
  respond(std::move(r));
}

/// Asks `dest` for `Result` by request/response and answers `respond` with
/// `on_result(result)`, or the error's body; within `pool`'s timeout, or
/// E030 (requesters.hpp). The request goes out from one of `pool`'s
/// long-lived actors, so that no I/O thread waits, no scheduler thread
/// blocks and no actor is spawned per request: the answer, whenever it
/// comes, goes straight to the connection.
template <class Result, class Handle, class OnResult, class... Ts>
void call(requester_pool& pool, const Handle& dest, respond_function respond,
          OnResult on_result, Ts... xs) {
  pool.submit(std::move(respond),
              [dest, on_result = std::move(on_result),
               xs...](requester_pool::pointer self, requester_pool::slot slot) mutable {
                // The requester holds the deadline: no timer per request.
                self->request(dest, caf::infinite, std::move(xs)...)
                    .then(
                        [slot, on_result](Result& x) {
                          if (auto respond = slot.take())
                            answer(respond, [&] { return on_result(x); });
                        },
                        [slot](caf::error& err) {
                          if (auto respond = slot.take())
                            answer(respond, [&] { return error_response(err); });
                        });
              });
}

} // namespace parley::service
