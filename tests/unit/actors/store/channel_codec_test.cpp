#include "actors/store/channel_codec.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "messages/json.hpp"
#include "support/channel_story.hpp"

namespace unit_actors_store_channel_codec_test {

using parley::actors::store::append_channel_event;
using parley::actors::store::decode_channel_event;
using parley::test::channel_ending;
using parley::test::channel_story;
namespace msg = parley::messages;

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

std::string encoded(const msg::channel_event& x) {
  std::string out;
  append_channel_event(out, x);
  return out;
}

msg::channel_event round_trip(const msg::channel_event& x) {
  auto bytes = encoded(x);
  return decode_channel_event(bytes.data(), bytes.size());
}

} // namespace

TEST_CASE("every kind of channel event comes back whole from its compact body",
          "[unit]") {
  std::vector<msg::channel_event> events;
  for (auto ending : {channel_ending::finalized, channel_ending::failed}) {
    auto story = channel_story("c-1", "d-1", t0, ending);
    events.insert(events.end(), story.begin(), story.end());
  }
  msg::channel_event understood;
  understood.kind = msg::channel_event_kind::demand_understood;
  understood.demand_id = "d-1";
  understood.understanding =
      msg::demand_understanding{"一场 200 人的 AI 聚会",
                                msg::json_object{R"({"why":"learn"})"},
                                {"venue"},
                                msg::json_object{R"({"location":"北京"})"},
                                msg::confidence_level::high,
                                true};
  events.push_back(understood);
  msg::channel_event filtered;
  filtered.kind = msg::channel_event_kind::filter_completed;
  filtered.demand_id = "d-1";
  filtered.selection =
      msg::candidate_selection{{{"bob", "Bob", "hosts", 90, {"venue", "catering"}}},
                               msg::selection_source::fallback,
                               "three active agents"};
  events.push_back(filtered);
  msg::channel_event negotiated = events.at(2);
  negotiated.offer->response_type = msg::offer_response_type::negotiate;
  negotiated.offer->negotiation_points = {{"date", "Friday", "Saturday", "busy"}};
  negotiated.offer->confidence = 73;
  events.push_back(negotiated);
  msg::channel_event evaluated = events.at(events.size() / 2);
  evaluated.kind = msg::channel_event_kind::feedback_evaluated;
  evaluated.tally =
      msg::channel_tally{2, 1, 0, 2.0 / 3.0, msg::channel_decision::renegotiate};
  events.push_back(evaluated);
  for (const auto& x : events) {
    INFO(nlohmann::json(x).dump());
    CHECK(round_trip(x) == x);
  }
}

TEST_CASE("a compact body is much smaller than the event's JSON", "[unit]") {
  // Each event is read back from its own bytes, wherever they sit in a
  // batch's buffer.
  std::string batch = "earlier bytes";
  auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
  auto offset = batch.size();
  append_channel_event(batch, story.at(3));
  CHECK(decode_channel_event(batch.data() + offset, batch.size() - offset) ==
        story.at(3));
  std::size_t json = 0;
  std::size_t compact = 0;
  for (const auto& x :
       channel_story("ch-1234", "demand-1234", t0, channel_ending::finalized)) {
    json += nlohmann::json(x).dump().size();
    compact += encoded(x).size();
  }
  CHECK(compact * 3 < json);
}

TEST_CASE("bytes that are not a compact body are refused, never misread", "[unit]") {
  auto story = channel_story("c-1", "d-1", t0, channel_ending::finalized);
  auto bytes = encoded(story.at(1));
  CHECK_THROWS(decode_channel_event(bytes.data(), 0));
  auto unknown = bytes;
  unknown[0] = 2;
  CHECK_THROWS(decode_channel_event(unknown.data(), unknown.size()));
  CHECK_THROWS(decode_channel_event(bytes.data(), bytes.size() - 1));
  auto longer = bytes + '\0';
  CHECK_THROWS(decode_channel_event(longer.data(), longer.size()));
}

} // namespace unit_actors_store_channel_codec_test
