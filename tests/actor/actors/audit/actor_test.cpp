#include "actors/audit/actor.hpp"

#include <sstream>

#include <catch2/catch.hpp>

#include "actors/ballot/actor.hpp"
#include "messages/json.hpp"
#include "support/actor_fixture.hpp"

namespace actor_actors_audit_actor_test {

using namespace std::chrono_literals;
using namespace parley::messages;
using parley::test::actor_fixture;

TEST_CASE("the audit log writes one JSON line per event, refusals included",
          "[actor]") {
  actor_fixture f;
  auto out = std::make_shared<std::ostringstream>();
  auto audit = parley::actors::audit::spawn_audit_log(f.sys, f.events, out);
  f.run();
  ballot_spec spec;
  spec.id = "b1";
  spec.topic = "ship it?";
  spec.voters = {{"v1", "builder"}, {"v2", "builder"}};
  auto b = parley::actors::ballot::open(*f.ballots, spec, {f.events, {}, {}}, f.timers);
  f.run();
  f.send(b, vote{"b1", "v1", "approve"});
  f.send(b, vote{"b1", "v1", "reject"});
  f.send(b, vote{"b1", "v2", "approve"});
  f.run();
  f.send(audit, done_atom::value);
  f.run();
  std::istringstream lines{out->str()};
  std::vector<nlohmann::json> records;
  for (std::string line; std::getline(lines, line);)
    records.push_back(nlohmann::json::parse(line));
  REQUIRE(records.size() == 5);
  std::vector<std::string> topics;
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].at("seq") == i + 1);
    CHECK(records[i].at("ts_ms").is_number_integer());
    topics.push_back(records[i].at("topic"));
  }
  CHECK(topics == std::vector<std::string>{"negotiation.propose", "negotiation.vote",
                                           "error", "negotiation.vote",
                                           "negotiation.result"});
  CHECK(records[2].at("event").at("code") == "E023");
  auto result = from_json_value<ballot_event>(records[4].at("event"));
  CHECK(result.outcome->status == ballot_status::approved);
}

TEST_CASE("the audit log appends channel events under their towow topic", "[actor]") {
  actor_fixture f;
  auto out = std::make_shared<std::ostringstream>();
  auto audit = parley::actors::audit::spawn_audit_log(f.sys, f.events, out);
  f.run();
  channel_event finalized;
  finalized.kind = channel_event_kind::finalized;
  finalized.at_ms = 42;
  finalized.channel_id = "collab-1";
  finalized.demand_id = "d-1";
  finalized.proposal = channel_proposal{};
  f.send(f.events.bus(), finalized);
  f.run();
  f.send(audit, done_atom::value);
  f.run();
  auto line = nlohmann::json::parse(out->str());
  CHECK(line.at("topic") == "towow.proposal.finalized");
  CHECK(line.at("event").at("type") == "proposal.finalized");
  CHECK(from_json_value<channel_event>(line.at("event")) == finalized);
}

} // namespace actor_actors_audit_actor_test
