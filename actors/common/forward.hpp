#pragma once

// Sends that CAF 0.17's `send` cannot express, all on the sending actor's own
// thread (its execution unit), which schedules the receiver on the same
// worker's queue like `self->send` does (caf::send_as and caf::anon_send go
// through the scheduler's shared entry instead).

#include <utility>

#include "caf/abstract_actor.hpp"
#include "caf/actor_cast.hpp"
#include "caf/message.hpp"
#include "caf/message_id.hpp"
#include "caf/check_typed_input.hpp"
#include "caf/response_type.hpp"
#include "caf/typed_actor.hpp"

namespace parley::actors {

namespace detail {

/// Refuses at compile time a message that a typed receiver does not accept.
template <class Dest, class... Ts> constexpr void check_accepts() {
  if constexpr (caf::statically_typed<Dest>()) {
    using token = caf::detail::type_list<caf::detail::strip_and_convert_t<Ts>...>;
    static_assert(caf::response_type_unbox<caf::signatures_of_t<Dest>, token>::valid,
                  "the receiver does not accept this message");
  }
}

/// Puts `xs` in `dest`'s mailbox; a receiver that waits for work is
/// scheduled on `eu` (next on that worker), or without one (nullptr) through
/// the scheduler's shared entry.
template <class Dest, class... Ts>
void enqueue_on(caf::execution_unit* eu, caf::strong_actor_ptr sender, const Dest& dest,
                Ts&&... xs) {
  if (dest)
    caf::actor_cast<caf::abstract_actor*>(dest)->eq_impl(
        caf::make_message_id(), std::move(sender), eu, std::forward<Ts>(xs)...);
}

template <class Self, class Dest, class... Ts>
void enqueue(Self* self, caf::strong_actor_ptr sender, const Dest& dest, Ts&&... xs) {
  enqueue_on(self->context(), std::move(sender), dest, std::forward<Ts>(xs)...);
}

} // namespace detail

/// Passes a whole message on (shared, not copied): the bus's fan-out and the
/// relay of an agent message. Unchecked: the content is only known at run
/// time.
template <class Self, class Dest>
void forward_message(Self* self, const Dest& dest, caf::message msg) {
  detail::enqueue(self, caf::strong_actor_ptr{self->ctrl()}, dest, std::move(msg));
}

/// Passes a whole message on without a sender (an event: its receivers
/// never answer, so no node creates a proxy for the producer).
template <class Self, class Dest>
void forward_anonymous(Self* self, const Dest& dest, caf::message msg) {
  detail::enqueue(self, caf::strong_actor_ptr{}, dest, std::move(msg));
}

/// Hands an event to a subscriber on this node through the scheduler's
/// shared entry, as a client outside the runtime would: a subscriber that
/// waits for work is queued at the back of a worker's queue instead of run
/// next on the producer's, so when it runs it takes in the events of many
/// producers at once, not one event per run. The subscriber's mailbox keeps
/// each producer's order all the same. W1 with `--store` took 7 % less time
/// so (docs/benchmarks/store.md, "2026-11-27, 22:40 UTC").
template <class Dest> void deliver_event(const Dest& dest, caf::message msg) {
  detail::enqueue_on(nullptr, caf::strong_actor_ptr{}, dest, std::move(msg));
}

/// Sends `xs` to `dest` as if `as` had sent them: the receiver answers `as`
/// (a negotiation speaks for itself while its room opens it; across nodes it
/// speaks through its room).
template <class Self, class As, class Dest, class... Ts>
void send_as(Self* self, const As& as, const Dest& dest, Ts&&... xs) {
  detail::check_accepts<Dest, Ts...>();
  detail::enqueue(self, caf::actor_cast<caf::strong_actor_ptr>(as), dest,
                  std::forward<Ts>(xs)...);
}

/// Sends `xs` to `dest` without a sender: for events, whose receivers never
/// answer (so no node creates a proxy for the producer).
template <class Self, class Dest, class... Ts>
void send_anonymous(Self* self, const Dest& dest, Ts&&... xs) {
  detail::check_accepts<Dest, Ts...>();
  detail::enqueue(self, caf::strong_actor_ptr{}, dest, std::forward<Ts>(xs)...);
}

} // namespace parley::actors
