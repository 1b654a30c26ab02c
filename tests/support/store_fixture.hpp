#pragma once

// A store actor over a fresh database, fed through a real bus, and a scoped
// actor to ask it.

#include <chrono>
#include <string>
#include <utility>

#include <catch2/catch.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "actors/bus/actor.hpp"
#include "actors/store/actor.hpp"
#include "messages/commands.hpp"
#include "messages/type_ids.hpp"
#include "support/store_backends.hpp"

namespace parley::test {

inline caf::actor_system_config& with_parley_types(caf::actor_system_config& cfg) {
  messages::register_types(cfg);
  return cfg;
}

/// The store URL of `target`.
inline actors::store::store_url url_of(const store_target& target) {
  actors::store::store_url url;
  REQUIRE(actors::store::parse_store_url(target.url, url).empty());
  return url;
}

struct store_fixture {
  store_target target;
  caf::actor_system_config cfg;
  caf::actor_system sys{with_parley_types(cfg)};
  messages::event_sink events = actors::bus::spawn_bus(sys);
  actors::store_actor db;
  caf::scoped_actor self{sys};

  explicit store_fixture(store_target t, actors::store::store_options options = {})
      : target(std::move(t)) {
    db = actors::store::spawn_store(sys, url_of(target), events, options);
  }

  ~store_fixture() {
    caf::anon_send(db, messages::done_atom::value);
    caf::anon_send_exit(events.bus(), caf::exit_reason::user_shutdown);
  }

  store_fixture(const store_fixture&) = delete;
  store_fixture& operator=(const store_fixture&) = delete;

  /// Publishes an event through the bus.
  template <class Event> void publish(const Event& x) {
    caf::anon_send(events.bus(), x);
  }

  /// Returns once the bus has passed on everything published before: a
  /// barrier comes back to its origin behind the events before it.
  void drain_bus() {
    self->send(events.bus(),
               messages::barrier{1, caf::actor_cast<actors::subscriber_actor>(self)});
    bool back = false;
    self->receive([&](const messages::barrier&) { back = true; },
                  caf::after(std::chrono::seconds{10}) >> [] {});
    REQUIRE(back);
  }

  /// The answer to `xs...`, or the error's code.
  template <class T, class... Ts> std::pair<T, messages::error_code> ask(Ts... xs) {
    std::pair<T, messages::error_code> out{T{}, messages::error_code::none};
    self->request(db, std::chrono::seconds{10}, xs...)
        .receive([&](T& x) { out.first = std::move(x); },
                 [&](caf::error& err) {
                   INFO(sys.render(err));
                   out.second = static_cast<messages::error_code>(err.code());
                 });
    return out;
  }
};

} // namespace parley::test
