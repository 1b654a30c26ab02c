#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/error.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "caf/send.hpp"

#include "actors/auction/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/negotiation/pool.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/bus.hpp"
#include "messages/handles/channel.hpp"
#include "messages/error_code.hpp"
#include "messages/handles/timer.hpp"
#include "messages/type_ids.hpp"

namespace parley::test {

/// What a recorder saw on the bus, in order.
struct recorded {
  std::vector<messages::negotiation_event> negotiation_events;
  std::vector<messages::problem_event> problems;
  std::vector<messages::agent_event> agent_events;
  std::vector<messages::ballot_event> ballot_events;
  std::vector<messages::auction_event> auction_events;
  std::vector<messages::channel_event> channel_events;
  /// Every negotiation as its events left it (the events are lean: see
  /// `messages::apply`).
  std::map<std::string, messages::negotiation_record> records;

  /// The lifecycle kinds seen so far, e.g. {started, updated, agreed}.
  std::vector<messages::negotiation_event_kind> kinds() const;

  /// The codes of the problems seen so far.
  std::vector<messages::error_code> codes() const;

  /// The record of the negotiation the last lifecycle event was about.
  const messages::negotiation_record& last_record() const;
};

/// An actor system on CAF's test coordinator, driven by the test like a
/// script: `run()` runs every ready actor, `advance(d)` moves virtual time by
/// `d` (firing the timers that fall due) and runs again. Nothing waits for
/// real time.
class actor_fixture {
public:
  actor_fixture();
  ~actor_fixture();

  actor_fixture(const actor_fixture&) = delete;
  actor_fixture& operator=(const actor_fixture&) = delete;

  /// Runs until no actor has anything to do (fires no timer).
  void run();

  /// Advances virtual time and runs what becomes due.
  void advance(std::chrono::milliseconds d);

  /// Milliseconds of virtual time since the fixture started.
  std::int64_t elapsed_ms() const;

  /// Spawns a stand-in agent that keeps every message it receives in `inbox`
  /// (transcript lines it ignores) and never answers.
  actors::agent_actor spawn_probe(std::vector<caf::message>& inbox);

  /// Spawns a stand-in subscriber (or reporter) that keeps every event and
  /// barrier it receives in `inbox`.
  actors::subscriber_actor spawn_listener(std::vector<caf::message>& inbox);

  /// Spawns a stand-in channel candidate that keeps every demand and
  /// proposal it receives in `inbox` and never answers.
  actors::channel_member_actor spawn_channel_probe(std::vector<caf::message>& inbox);

  /// Spawns a stand-in channel reporter that keeps every channel event in
  /// `events`.
  actors::channel_reporter_actor
  spawn_channel_listener(std::vector<messages::channel_event>& events);

  /// Sends a message of `xs` to `dst` from no actor in particular.
  template <class Handle, class... Ts> void send(const Handle& dst, Ts&&... xs) {
    caf::anon_send(dst, std::forward<Ts>(xs)...);
  }

  /// Stops `x` when the fixture ends (long-lived actors with cycles would
  /// otherwise keep the actor system from shutting down).
  template <class Handle> void keep(const Handle& x) {
    owned_.push_back(caf::actor_cast<caf::actor>(x));
  }

  caf::actor_system_config cfg;
  caf::actor_system sys;
  caf::scheduler::test_coordinator& sched;
  /// The event bus, with a recorder subscribed to every topic.
  messages::event_sink events;
  /// The timer service and negotiation actors of the fixture's rooms, and
  /// its ballot and auction actors.
  actors::timer_actor timers;
  std::shared_ptr<actors::negotiation::pool> negotiations;
  std::shared_ptr<actors::ballot::pool> ballots;
  std::shared_ptr<actors::auction::pool> auctions;
  recorded seen;

private:
  std::vector<caf::actor> owned_;
};

/// The Parley error code of `e` (error_code::none for any other error).
inline messages::error_code code_of(const caf::error& e) {
  return messages::is_parley_error(e) ? static_cast<messages::error_code>(e.code())
                                      : messages::error_code::none;
}

} // namespace parley::test
