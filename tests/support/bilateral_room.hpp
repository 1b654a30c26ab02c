#pragma once

#include <string>
#include <vector>

#include "caf/actor.hpp"
#include "caf/message.hpp"

#include "actors/room/actor.hpp"
#include "support/actor_fixture.hpp"

namespace parley::test {

/// A room "room-1" whose two participants, "alice" and "bob", are probes: the
/// test speaks for them by sending agent messages to the room.
struct bilateral_room {
  bilateral_room(actor_fixture& fx, messages::negotiation_settings settings = {})
      : fx(fx) {
    alice = fx.spawn_probe(alice_inbox);
    bob = fx.spawn_probe(bob_inbox);
    messages::room_spec spec;
    spec.id = "room-1";
    spec.participants = {{"alice", alice}, {"bob", bob}};
    spec.settings = settings;
    spec.seed = 7;
    spec.bus = fx.bus;
    room = actors::room::spawn_room(fx.sys, std::move(spec));
    fx.keep(room);
  }

  /// Alice proposes `amount` GBP to Bob.
  void start(std::int64_t amount = 10000, std::string message_id = "alice:1") {
    messages::proposal p;
    p.amount = amount;
    fx.send(room,
            messages::start_negotiation{std::move(message_id), "alice", "bob", p, {}});
    fx.run();
  }

  void counter(const std::string& from, std::int64_t amount, std::string message_id) {
    messages::proposal p;
    p.amount = amount;
    fx.send(room, messages::agent_counter{std::move(message_id), "current", from, p,
                                          "counter"});
    fx.run();
  }

  void accept(const std::string& from, std::string message_id) {
    fx.send(room, messages::agent_accept{std::move(message_id), "current", from});
    fx.run();
  }

  /// The last lifecycle event's record.
  const messages::negotiation_record& last() const {
    return fx.seen.negotiation_events.back().record;
  }

  actor_fixture& fx;
  std::vector<caf::message> alice_inbox;
  std::vector<caf::message> bob_inbox;
  caf::actor alice;
  caf::actor bob;
  caf::actor room;
};

} // namespace parley::test
