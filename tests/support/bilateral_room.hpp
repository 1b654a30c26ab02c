#pragma once

#include <string>
#include <vector>

#include "caf/message.hpp"

#include "actors/room/actor.hpp"
#include "messages/agent_messages.hpp"
#include "support/actor_fixture.hpp"

namespace parley::test {

/// A room "room-1" whose two participants, "alice" and "bob", are probes: the
/// test speaks for them by sending agent messages to the room. They stand for
/// rule agents, or with `parties_hear_expiry` for stand-ins of agents on
/// another node (cluster/bridge), which their negotiations tell of an expiry.
struct bilateral_room {
  bilateral_room(actor_fixture& fx, messages::negotiation_settings settings = {},
                 bool parties_hear_expiry = false)
      : fx(fx) {
    alice = fx.spawn_probe(alice_inbox);
    bob = fx.spawn_probe(bob_inbox);
    messages::room_spec spec;
    spec.id = "room-1";
    spec.members = {{"alice", alice, false, parties_hear_expiry},
                    {"bob", bob, false, parties_hear_expiry}};
    spec.settings = settings;
    spec.seed = 7;
    spec.events = fx.events;
    room = actors::room::spawn_room(fx.sys, std::move(spec), fx.timers, fx.negotiations);
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

  /// The terms an offer in `inbox` (a proposal or counter, then its terms)
  /// came with.
  static const messages::answer_terms& terms_of(const caf::message& offer) {
    return offer.get_as<messages::answer_terms>(1);
  }

  /// The record of the negotiation the last lifecycle event was about, as
  /// its events left it.
  const messages::negotiation_record& last() const { return fx.seen.last_record(); }

  actor_fixture& fx;
  std::vector<caf::message> alice_inbox;
  std::vector<caf::message> bob_inbox;
  actors::agent_actor alice;
  actors::agent_actor bob;
  actors::room_actor room;
};

} // namespace parley::test
