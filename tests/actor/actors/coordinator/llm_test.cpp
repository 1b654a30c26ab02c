#include "actors/coordinator/actor.hpp"

#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/event_based_actor.hpp"
#include "caf/expected.hpp"
#include "caf/sec.hpp"

#include "actors/channel/member.hpp"
#include "support/actor_fixture.hpp"
#include "messages/channel_event.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/topic.hpp"

namespace actor_actors_coordinator_llm_test {

using namespace std::chrono_literals;
using nlohmann::json;
using namespace parley::messages;
using parley::actors::coordinator_actor;
using parley::test::actor_fixture;

namespace {

/// Stands in for the HTTP client: keeps every request and who sent it (the
/// coordinator for prompts 1 and 2, a channel's aggregator for prompt 4) and
/// never answers, so the test answers for the provider.
caf::behavior recording_client(caf::event_based_actor* self,
                               std::vector<llm_request>* seen,
                               std::vector<caf::actor>* senders) {
  return {[self, seen, senders](const llm_request& x) {
    seen->push_back(x);
    senders->push_back(caf::actor_cast<caf::actor>(self->current_sender()));
  }};
}

/// The provider's answer (Anthropic form) holding `text`.
std::string reply_with(const std::string& text) {
  return json{{"content", {{{"type", "text"}, {"text", text}}}},
              {"stop_reason", "end_turn"}}
      .dump();
}

const std::string demand = "想在北京办一场AI主题聚会，需要场地和餐饮";

/// A coordinator whose brain is the LLM (through the recording client), with
/// two rule members; `events` are the bus recorder's channel events.
struct llm_world {
  actor_fixture f;
  std::vector<llm_request> seen;
  std::vector<caf::actor> senders;
  std::vector<channel_event>& events = f.seen.channel_events;
  coordinator_actor coordinator;
  caf::expected<demand_receipt> receipt{caf::make_error(caf::sec::request_timeout)};
  bool answered = false;

  llm_world() {
    auto client = f.sys.spawn(recording_client, &seen, &senders);
    f.keep(client);
    channel_settings settings;
    settings.coordinator_brain = "llm";
    parley::actors::llm::prompt_model model;
    model.client = caf::actor_cast<parley::actors::llm_client_actor>(client);
    coordinator = parley::actors::coordinator::spawn_coordinator(
        f.sys, settings, 7, {f.events, f.timers}, model);
    f.keep(coordinator);
    add("ann", "场地");
    add("bob", "餐饮");
  }

  void add(const std::string& id, const std::string& capability, bool active = true) {
    channel_member_spec spec;
    spec.profile = channel_profile{id, "Agent " + id, {capability}, "", active};
    auto member = parley::actors::channel::spawn_member(f.sys, spec, f.events);
    f.keep(member);
    f.send(coordinator, register_member{spec.profile, member});
    f.run();
  }

  /// Submits the demand as an actor would; the answer lands in `receipt`.
  void submit() {
    f.sys.spawn(
        [this](caf::event_based_actor* self, const coordinator_actor& to) {
          self->request(to, 60s, submit_demand{demand, "u-1", "d-1"})
              .then(
                  [this](demand_receipt& x) {
                    receipt = std::move(x);
                    answered = true;
                  },
                  [this](caf::error& e) {
                    receipt = std::move(e);
                    answered = true;
                  });
        },
        coordinator);
    f.run();
  }

  /// Answers the last request with `text`, to whoever asked.
  void answer(const std::string& text) {
    REQUIRE_FALSE(seen.empty());
    f.send(senders.back(),
           llm_response{seen.back().call_id, 200, reply_with(text), {}, {}});
    f.run();
  }

  /// Fails the last request with `code`.
  void fail(error_code code) {
    REQUIRE_FALSE(seen.empty());
    f.send(senders.back(), llm_response{seen.back().call_id, 0, {}, code, "no answer"});
    f.run();
  }

  /// The channel asked prompt 4 (its aggregation) last: fails it, so the
  /// channel merges by rule and the rule members take it to its end.
  void fail_aggregation() {
    REQUIRE_FALSE(senders.empty());
    CHECK(senders.back() != caf::actor_cast<caf::actor>(coordinator));
    fail(error_code::llm_timeout);
  }

  const channel_event* first(channel_event_kind kind) const {
    for (const auto& x : events)
      if (x.kind == kind)
        return &x;
    return nullptr;
  }

  std::vector<problem_event> warnings() const {
    std::vector<problem_event> xs;
    for (const auto& p : f.seen.problems)
      if (p.severity == severity::warning)
        xs.push_back(p);
    return xs;
  }
};

using parley::test::code_of;

json good_understanding() {
  return {{"surface_demand", "在北京办AI聚会"},
          {"capability_tags", {"场地", "餐饮"}},
          {"confidence", "high"}};
}

json good_selection() {
  return {{"analysis", "两位相关"},
          {"definitely_related",
           {{{"agent_id", "bob"}, {"reason", "餐饮"}, {"relevance_score", 90}},
            {{"agent_id", "ann"}, {"reason", "场地"}, {"relevance_score", 95}}}},
          {"possibly_related", json::array()}};
}

} // namespace

TEST_CASE("an LLM coordinator understands and picks through prompts 1 and 2",
          "[actor][coordinator][llm]") {
  llm_world w;
  w.submit();
  REQUIRE(w.seen.size() == 1); // prompt 1, the demand byte for byte
  CHECK(w.seen[0].body.find(demand) != std::string::npos);
  CHECK_FALSE(w.answered);
  w.answer(good_understanding().dump());
  REQUIRE(w.seen.size() == 2); // prompt 2
  CHECK_FALSE(w.answered);
  w.answer("```json\n" + good_selection().dump() + "\n```");
  REQUIRE(w.answered);
  REQUIRE(w.receipt);
  CHECK(w.receipt->demand_id == "d-1");
  CHECK(w.receipt->understanding.surface_demand == "在北京办AI聚会");
  const auto* understood = w.first(channel_event_kind::demand_understood);
  REQUIRE(understood);
  CHECK_FALSE(understood->understanding->fallback);
  const auto* filtered = w.first(channel_event_kind::filter_completed);
  REQUIRE(filtered);
  CHECK(filtered->selection->source == selection_source::matched);
  REQUIRE(filtered->selection->candidates.size() == 2);
  CHECK(filtered->selection->candidates[0].agent_id == "ann");
  CHECK(w.warnings().empty());
  REQUIRE(w.seen.size() == 3); // the channel's prompt 4
  w.fail_aggregation();
  // The rule members take it from there: the channel ends.
  REQUIRE_FALSE(w.events.empty());
  CHECK(w.events.back().kind == channel_event_kind::finalized);
}

TEST_CASE("an LLM coordinator retries prompt 2 and falls back, marked, on garbage",
          "[actor][coordinator][llm]") {
  llm_world w;
  w.submit();
  w.answer("我不知道");
  REQUIRE(w.seen.size() == 2);
  w.answer("{\"definitely_related\": 3}");
  REQUIRE(w.seen.size() == 3); // the relaxed retry
  CHECK_FALSE(w.answered);
  w.answer("still not it");
  REQUIRE(w.answered);
  REQUIRE(w.receipt);
  const auto* understood = w.first(channel_event_kind::demand_understood);
  REQUIRE(understood);
  CHECK(understood->understanding->fallback);
  const auto* filtered = w.first(channel_event_kind::filter_completed);
  REQUIRE(filtered);
  CHECK(filtered->selection->fallback());
  CHECK_FALSE(filtered->selection->candidates.empty());
  auto warnings = w.warnings();
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].message.find("prompt 1 (understanding) fell back on the rules") !=
        std::string::npos);
  CHECK(warnings[1].message.find("prompt 2 (candidate selection) fell back") !=
        std::string::npos);
  CHECK(warnings[1].message_id == "d-1");
  REQUIRE(w.seen.size() == 4); // the channel's prompt 4
  w.fail_aggregation();
  CHECK(w.events.back().kind == channel_event_kind::finalized);
}

TEST_CASE("an LLM coordinator falls back at once when its calls fail",
          "[actor][coordinator][llm]") {
  llm_world w;
  w.submit();
  w.fail(error_code::llm_timeout);
  REQUIRE(w.seen.size() == 2);
  w.fail(error_code::llm_unavailable);
  // No retry after a failed call: the third request is the channel's prompt 4.
  REQUIRE(w.seen.size() == 3);
  REQUIRE(w.answered);
  REQUIRE(w.receipt);
  auto warnings = w.warnings();
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0].code == error_code::llm_timeout);
  CHECK(warnings[1].code == error_code::llm_unavailable);
  CHECK(w.first(channel_event_kind::filter_completed)->selection->fallback());
  w.fail_aggregation();
  CHECK(w.events.back().kind == channel_event_kind::finalized);
}

TEST_CASE("an LLM coordinator refuses a demand nobody can take before prompt 2",
          "[actor][coordinator][llm]") {
  llm_world w;
  w.add("ann", "场地", false);
  w.add("bob", "餐饮", false);
  w.submit();
  w.answer(good_understanding().dump());
  CHECK(w.seen.size() == 1);
  REQUIRE(w.answered);
  REQUIRE_FALSE(w.receipt);
  CHECK(code_of(w.receipt.error()) == error_code::no_candidates);
}

} // namespace actor_actors_coordinator_llm_test
