#include "cli/event_printer.hpp"

#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "messages/json.hpp"

namespace unit_cli_event_printer_test {

namespace msg = parley::messages;
using parley::cli::event_printer;
using parley::cli::output_format;

namespace {

msg::channel_event evaluated() {
  msg::channel_event x;
  x.kind = msg::channel_event_kind::feedback_evaluated;
  x.at_ms = 1'250;
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.round = 2;
  x.tally = msg::channel_tally{2, 1, 0, 0.6667, msg::channel_decision::renegotiate};
  return x;
}

} // namespace

TEST_CASE("parley run prints a channel event as one JSON line: its wire JSON with t_ms",
          "[unit]") {
  std::ostringstream out;
  event_printer printer{output_format::json_lines, out, 1'000};
  printer.print(evaluated());
  auto text = out.str();
  REQUIRE(text.find('\n') == text.size() - 1);
  auto j = nlohmann::json::parse(text);
  CHECK(j.at("t_ms") == 250);
  CHECK(j.at("type") == "feedback.evaluated");
  CHECK(j.at("channel_id") == "collab-1");
  CHECK(j.at("tally").at("decision") == "renegotiate");
  CHECK_FALSE(j.contains("at_ms"));
  // Fields empty for this kind are left out; they read back as empty.
  for (const auto* empty : {"agents", "reason", "compromise_suggestion"})
    CHECK_FALSE(j.contains(empty));
  // Everything else is the event's own JSON.
  j["at_ms"] = 1'250;
  j.erase("t_ms");
  CHECK(msg::from_json_value<msg::channel_event>(j) == evaluated());
}

TEST_CASE("the timeline shows a channel event's channel, round and kind", "[unit]") {
  auto x = evaluated();
  CHECK(parley::cli::timeline_line(x, 1'000) ==
        "+0.250s  collab-1  round 2  feedback.evaluated");
  x.kind = msg::channel_event_kind::failed;
  x.reason = "low_acceptance";
  CHECK(parley::cli::timeline_line(x, 1'000) ==
        "+0.250s  collab-1  round 2  negotiation.failed: low_acceptance");
}

} // namespace unit_cli_event_printer_test
