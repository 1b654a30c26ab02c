#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

#include "caf/actor.hpp"
#include "caf/actor_system.hpp"
#include "caf/atom.hpp"
#include "caf/error.hpp"
#include "caf/result.hpp"
#include "caf/typed_response_promise.hpp"

#include "messages/commands.hpp"
#include "messages/events.hpp"
#include "messages/negotiation_record.hpp"

namespace parley::actors::agent {

/// How long an agent waits for a room to answer a start request.
constexpr auto start_timeout = std::chrono::seconds(10);

/// Asks `room` to open a negotiation with `responder`, this agent proposing
/// `opening`. Once the room answers with the opened record, the opening is the
/// agent's latest offer in it and `on_opened(record)` runs; otherwise
/// `on_refused(error)`. A refusal is published by the room; a room that does
/// not answer at all is reported here (E018). Shared by every agent shell
/// (`State` has `id`, `bus`, `clock`, `open` — memos by negotiation id — and
/// `next_message_id()`).
template <class Self, class OnOpened, class OnRefused>
void start_negotiation_in(Self* self, const caf::actor& room, std::string responder,
                          messages::proposal opening, std::string intent_id,
                          OnOpened on_opened, OnRefused on_refused) {
  auto& st = self->state;
  auto request = messages::start_negotiation{
      st.next_message_id(), st.id, std::move(responder), opening, std::move(intent_id)};
  self->request(room, start_timeout, std::move(request))
      .then(
          [self, opening, on_opened](messages::negotiation_record& record) mutable {
            auto& m = self->state.open[record.id];
            m.my_last = std::move(opening);
            m.round = static_cast<std::int32_t>(record.rounds.size());
            on_opened(record);
          },
          [self, on_refused](caf::error& err) mutable {
            if (err.category() != caf::atom("parley")) {
              auto& st = self->state;
              self->send(st.bus, messages::problem_event{
                                     messages::severity::error,
                                     messages::error_code::room_not_found,
                                     "Room did not answer the start request: " +
                                         self->system().render(err),
                                     st.clock->now_ms(),
                                     {},
                                     {},
                                     st.id,
                                     {}});
            }
            on_refused(err);
          });
}

/// Answers an `initiate_negotiation` with the opened record or the room's
/// error (see `start_negotiation_in`).
template <class Self>
caf::result<messages::negotiation_record> initiate(Self* self,
                                                   messages::initiate_negotiation& x) {
  auto promise = self->template make_response_promise<messages::negotiation_record>();
  start_negotiation_in(
      self, x.room, std::move(x.responder), std::move(x.proposal),
      std::move(x.intent_id),
      [promise](messages::negotiation_record& record) mutable {
        promise.deliver(std::move(record));
      },
      [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

} // namespace parley::actors::agent
