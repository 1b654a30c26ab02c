#include "messages/topic.hpp"

#include <string>

#include <catch2/catch.hpp>

#include "messages/channel_event.hpp"

namespace unit_messages_topic_test {

using namespace parley::messages;

namespace {

constexpr channel_event_kind all_kinds[] = {
    channel_event_kind::demand_understood, channel_event_kind::filter_completed,
    channel_event_kind::created,           channel_event_kind::demand_broadcast,
    channel_event_kind::offer_submitted,   channel_event_kind::proposal_distributed,
    channel_event_kind::proposal_feedback, channel_event_kind::feedback_evaluated,
    channel_event_kind::round_started,     channel_event_kind::finalized,
    channel_event_kind::force_finalized,   channel_event_kind::failed};

} // namespace

TEST_CASE("each channel event kind has its own topic, named towow. and the kind",
          "[unit]") {
  topic_set seen;
  for (auto k : all_kinds) {
    auto t = topic_of(k);
    INFO(to_string(k));
    CHECK(std::string{name_of(t)} == "towow." + to_string(k));
    CHECK_FALSE(seen.contains(t));
    CHECK(channel_topics.contains(t));
    seen = seen | topic_set::of(t);
    channel_event x;
    x.kind = k;
    CHECK(topic_of(x) == t);
  }
  CHECK(seen == channel_topics);
  CHECK(std::string{name_of(topic::proposal_finalized)} == "towow.proposal.finalized");
  CHECK(std::string{name_of(topic::force_finalized)} ==
        "towow.negotiation.force_finalized");
}

TEST_CASE("towow.* names the channel topics, and only them", "[unit]") {
  CHECK(topic_set::matching("towow.*") == channel_topics);
  CHECK(topic_set::matching("towow.proposal.finalized") ==
        topic_set::of(topic::proposal_finalized));
  CHECK(topic_set::matching("towow.negotiation.*") ==
        (topic_set::of(topic::round_started) | topic_set::of(topic::force_finalized) |
         topic_set::of(topic::channel_failed)));
  // The bilateral patterns stay as they were.
  CHECK(topic_set::matching("negotiation.*") ==
        (lifecycle_topics | topic_set::of(topic::ballot_proposed) |
         topic_set::of(topic::ballot_vote) | topic_set::of(topic::ballot_result)));
  CHECK_FALSE(topic_set::matching("negotiation.*").contains(topic::channel_failed));
  // "*" is every topic, the channel topics with the rest.
  CHECK(topic_set::matching("*") == topic_set::all());
  CHECK(topic_set::all().contains(topic::demand_understood));
  CHECK(topic_set::all().contains(topic::channel_failed));
  CHECK(topic_set::all().contains(topic::negotiation_started));
  CHECK(topic_set::matching("proposal.finalized").empty());
  CHECK(topic_set::matching("towow.nothing").empty());
}

} // namespace unit_messages_topic_test
