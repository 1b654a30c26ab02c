#include "cli/demand_outcome.hpp"

#include <catch2/catch.hpp>

namespace unit_cli_demand_outcome_test {

using parley::messages::channel_outcome;
using parley::messages::channel_proposal;
using parley::messages::demand_status;
using parley::messages::demand_view;
using parley::cli::check_expectation;
using parley::cli::count_demand;
using parley::cli::demand_expectation;
using parley::cli::demand_summary;

namespace {

/// A demand whose top channel ended with `status`, confirmed by `agents`.
demand_view ended(demand_status status, std::vector<std::string> agents) {
  channel_proposal p;
  for (auto& a : agents)
    p.assignments.push_back({a, a, "part", "", {}, true, ""});
  channel_outcome top;
  top.channel_id = "collab-1";
  top.status = status;
  top.proposal = p;
  demand_view v;
  v.demand_id = "d1";
  v.status = status;
  v.channels.push_back(top);
  return v;
}

} // namespace

TEST_CASE("an expectation that holds yields no mismatch", "[unit]") {
  auto view = ended(demand_status::finalized, {"b", "a"});
  demand_expectation e;
  e.confirmed = std::vector<std::string>{"a", "b"};
  e.rounds = 1;
  e.subchannels = 0;
  CHECK(check_expectation(e, view, 1).empty());
}

TEST_CASE("each mismatch is named with the demand, expected and actual", "[unit]") {
  auto view = ended(demand_status::failed, {"a"});
  view.channels[0].reason = "low_acceptance";
  view.channels.push_back(channel_outcome{});
  demand_expectation e;
  e.status = demand_status::finalized;
  e.confirmed = std::vector<std::string>{"a", "b"};
  e.rounds = 5;
  e.subchannels = 0;
  auto xs = check_expectation(e, view, 2);
  REQUIRE(xs.size() == 4);
  CHECK(xs[0] == "demand d1: expected status finalized, got failed (low_acceptance)");
  CHECK(xs[1] == "demand d1: expected confirmed participants [a, b], got [a]");
  CHECK(xs[2] == "demand d1: expected 5 round(s), got 2");
  CHECK(xs[3] == "demand d1: expected 0 sub-channel(s), got 1");
  demand_expectation r;
  r.status = demand_status::failed;
  r.reason = "timeout";
  CHECK(check_expectation(r, view, 2) ==
        std::vector<std::string>{
            "demand d1: expected reason timeout, got low_acceptance"});
}

TEST_CASE("a forced proposal's confirmed participants are its own list", "[unit]") {
  auto view = ended(demand_status::force_finalized, {"a", "b", "c"});
  view.channels[0].proposal->is_forced = true;
  view.channels[0].proposal->confirmed_participants = {"a", "c"};
  CHECK(parley::cli::confirmed_participants(view.channels[0]) ==
        std::vector<std::string>{"a", "c"});
}

TEST_CASE("demands and their channels are counted by outcome", "[unit]") {
  demand_summary s;
  auto view = ended(demand_status::finalized, {"a"});
  channel_outcome sub;
  sub.status = demand_status::failed;
  view.channels.push_back(sub);
  count_demand(s, view);
  count_demand(s, ended(demand_status::force_finalized, {"a"}));
  CHECK(s.demands == 0);
  CHECK(s.demands_finalized == 1);
  CHECK(s.demands_force_finalized == 1);
  CHECK(s.demands_failed == 0);
  CHECK(s.channels == 3);
  CHECK(s.channels_finalized == 1);
  CHECK(s.channels_force_finalized == 1);
  CHECK(s.channels_failed == 1);
}

} // namespace unit_cli_demand_outcome_test
