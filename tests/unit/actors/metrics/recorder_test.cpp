#include "actors/metrics/recorder.hpp"

#include <catch2/catch.hpp>

#include "messages/channel_event.hpp"
#include "messages/events.hpp"

namespace unit_actors_metrics_recorder_test {

using namespace parley;
using namespace parley::actors::metrics;
using messages::channel_event_kind;
using messages::negotiation_event_kind;

namespace {

messages::negotiation_event negotiation(negotiation_event_kind kind, std::int64_t at_ms,
                                        std::size_t rounds) {
  messages::negotiation_event x;
  x.kind = kind;
  x.at_us = at_ms * 1000;
  x.negotiation_id = "n1";
  messages::negotiation_record r;
  r.id = "n1";
  r.created_at = 1000;
  r.rounds.resize(rounds);
  if (kind != negotiation_event_kind::updated)
    x.record = messages::shared_record{std::move(r)};
  return x;
}

messages::channel_event channel(channel_event_kind kind, std::string id,
                                std::int64_t at_ms, std::int32_t round = 1) {
  messages::channel_event x;
  x.kind = kind;
  x.channel_id = std::move(id);
  x.at_ms = at_ms;
  x.round = round;
  return x;
}

} // namespace

TEST_CASE("negotiation events move the started, ended, rounds and duration metrics",
          "[unit][metrics]") {
  auto m = std::make_shared<node_metrics>(1);
  recorder r{m};
  r.on(negotiation(negotiation_event_kind::started, 1000, 1));
  r.on(negotiation(negotiation_event_kind::started, 1000, 1));
  r.on(negotiation(negotiation_event_kind::agreed, 1250, 4));
  const auto& n = m->negotiations;
  CHECK(n.started.value() == 2);
  CHECK(n.ended[static_cast<std::size_t>(negotiation_outcome::agreed)].value() == 1);
  CHECK(n.open() == 1);
  CHECK(n.rounds.read().count() == 1);
  CHECK(n.rounds.read().sum == 4);
  CHECK(n.duration_ms.read().sum == 250);
  r.on(negotiation(negotiation_event_kind::expired, 121000, 2));
  CHECK(n.ended[static_cast<std::size_t>(negotiation_outcome::expired)].value() == 1);
  CHECK(n.open() == 0);
  CHECK(m->events[static_cast<std::size_t>(messages::topic::negotiation_started)]
            .value() == 2);
  CHECK(m->events[static_cast<std::size_t>(messages::topic::negotiation_agreed)]
            .value() == 1);
}

TEST_CASE("channel events move the demand, channel and final status metrics",
          "[unit][metrics]") {
  auto m = std::make_shared<node_metrics>(1);
  recorder r{m};
  r.on(channel(channel_event_kind::demand_understood, "", 0));
  r.on(channel(channel_event_kind::created, "c1", 100));
  r.on(channel(channel_event_kind::created, "c2", 200));
  r.on(channel(channel_event_kind::offer_submitted, "c1", 300));
  CHECK(r.tracked_channels() == 2);
  r.on(channel(channel_event_kind::force_finalized, "c1", 1100, 5));
  r.on(channel(channel_event_kind::failed, "c9", 1200, 2)); // resumed: no start seen
  const auto& c = m->channels;
  CHECK(c.demands.value() == 1);
  CHECK(c.created.value() == 2);
  CHECK(c.ended[static_cast<std::size_t>(channel_outcome::force_finalized)].value() ==
        1);
  CHECK(c.ended[static_cast<std::size_t>(channel_outcome::failed)].value() == 1);
  CHECK(c.open() == 0);
  CHECK(c.rounds.read().sum == 7);
  CHECK(c.duration_ms.read().count() == 1);
  CHECK(c.duration_ms.read().sum == 1000);
  CHECK(r.tracked_channels() == 1);
}

TEST_CASE("the recorded topics leave out the per-round and per-vote events",
          "[unit][metrics]") {
  auto topics = recorded_topics();
  CHECK(topics.contains(messages::topic::negotiation_started));
  CHECK(topics.contains(messages::topic::channel_failed));
  CHECK_FALSE(topics.contains(messages::topic::negotiation_updated));
  CHECK_FALSE(topics.contains(messages::topic::ballot_vote));
  CHECK_FALSE(topics.contains(messages::topic::offer_submitted));
}

} // namespace unit_actors_metrics_recorder_test
