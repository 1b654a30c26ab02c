#include "actors/channel/llm_aggregation.hpp"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/event_based_actor.hpp"

#include "actors/channel/actor.hpp"
#include "support/actor_fixture.hpp"
#include "support/channel_world.hpp"
#include "messages/channel_messages.hpp"

namespace actor_actors_channel_llm_aggregation_test {

using namespace std::chrono_literals;
using nlohmann::json;
namespace msg = parley::messages;
namespace ch = parley::actors::channel;

namespace {

/// What the stand-in client got: each request and who sent it.
struct calls {
  std::vector<msg::llm_request> requests;
  std::vector<parley::actors::llm_caller_actor> callers;
};

/// Stands in for the HTTP client: keeps every request and never answers, so
/// the test answers for the provider (or does not).
caf::behavior recording_client(caf::event_based_actor* self, calls* seen) {
  return {[self, seen](const msg::llm_request& x) {
    seen->requests.push_back(x);
    seen->callers.push_back(
        caf::actor_cast<parley::actors::llm_caller_actor>(self->current_sender()));
  }};
}

/// The provider's answer (Anthropic form) holding `text`.
msg::llm_response reply_with(const std::string& text) {
  return {0,
          200,
          json{{"content", {{{"type", "text"}, {"text", text}}}},
               {"stop_reason", "end_turn"}}
              .dump(),
          {},
          {}};
}

json good_proposal() {
  return {{"summary", "a hosts, b speaks"},
          {"objective", "an AI meetup in Beijing"},
          {"assignments",
           {{{"agent_id", "a"}, {"role", "host"}, {"responsibility", "the hall"}},
            {{"agent_id", "b"}, {"role", "speaker"}, {"dependencies", {"a"}}}}},
          {"rationale", "both are free"},
          {"gaps", json::array()},
          {"confidence", "high"}};
}

/// A channel of candidates a and b whose proposals are asked of a model
/// behind the recording client (5 s to answer), once both offered.
struct llm_channel {
  parley::test::actor_fixture f;
  calls seen;
  std::map<std::string, std::vector<caf::message>> inboxes;
  std::vector<msg::channel_event>& events = f.seen.channel_events;
  std::vector<msg::channel_event> ended;
  parley::actors::channel_actor channel;

  llm_channel() {
    auto stand_in = f.sys.spawn(recording_client, &seen);
    f.keep(stand_in);
    parley::actors::llm::prompt_model prompt_model;
    prompt_model.client = caf::actor_cast<parley::actors::llm_client_actor>(stand_in);
    ch::aggregation_model model;
    model.model =
        std::make_shared<const parley::actors::llm::prompt_model>(prompt_model);
    model.answer_timeout_ms = 5000;
    ch::channel_spec spec;
    spec.channel_id = "collab-1";
    spec.demand_id = "d-1";
    spec.surface_demand = "an AI meetup in Beijing";
    spec.capability_tags = {"venue", "speaker"};
    spec.settings = parley::test::timeouts_only();
    for (const auto* id : {"a", "b"})
      spec.candidates.push_back({id,
                                 std::string{"Agent "} + id,
                                 "can help",
                                 80,
                                 f.spawn_channel_probe(inboxes[id]),
                                 {id == std::string{"a"} ? "venue" : "speaker"}});
    channel = ch::spawn_channel(
        f.sys, spec, {f.events, f.spawn_channel_listener(ended), f.timers, model});
    f.keep(channel);
    f.run();
    for (const auto* id : {"a", "b"}) {
      msg::offer_response x;
      x.message_id = std::string{"o-"} + id;
      x.channel_id = "collab-1";
      x.agent_id = id;
      x.display_name = std::string{"Agent "} + id;
      x.contribution = std::string{id} + "'s part";
      f.send(channel, x);
    }
    f.run();
  }

  /// Answers the model's call as the client would: to its caller.
  void answer(msg::llm_response x) {
    REQUIRE(seen.requests.size() == 1);
    x.call_id = seen.requests[0].call_id;
    f.send(seen.callers[0], std::move(x));
    f.run();
  }

  const msg::channel_event* distributed() const {
    for (const auto& x : events)
      if (x.kind == msg::channel_event_kind::proposal_distributed)
        return &x;
    return nullptr;
  }

  /// How many proposal_reviews `agent` got.
  std::size_t reviews(const std::string& agent) const {
    std::size_t n = 0;
    for (const auto& m : inboxes.at(agent))
      n += m.match_elements<msg::proposal_review>() ? 1 : 0;
    return n;
  }

  std::vector<msg::problem_event> warnings() const {
    std::vector<msg::problem_event> xs;
    for (const auto& p : f.seen.problems)
      if (p.severity == msg::severity::warning)
        xs.push_back(p);
    return xs;
  }

  /// Checks that the proposal went out as the rule's merge, marked
  /// `fallback`, and that one warning of `code` said `why`.
  void check_fell_back(msg::error_code code, const std::string& why) const {
    const auto* x = distributed();
    REQUIRE(x);
    REQUIRE(x->proposal);
    CHECK(x->proposal->fallback);
    CHECK(x->proposal->summary == "2 of 2 candidates take part");
    CHECK(reviews("a") == 1);
    auto w = warnings();
    REQUIRE(w.size() == 1);
    CHECK(w[0].code == code);
    CHECK(w[0].negotiation_id == "collab-1");
    CHECK(w[0].message.find("prompt 4 (aggregation) fell back on the rule's merge: " +
                            why) != std::string::npos);
  }
};

} // namespace

TEST_CASE("a channel with a model aggregates the offers by prompt 4",
          "[actor][channel][llm]") {
  llm_channel c;
  REQUIRE(c.seen.requests.size() == 1);
  auto request = json::parse(c.seen.requests[0].body);
  CHECK(request["messages"][0]["content"].get<std::string>().find("a's part") !=
        std::string::npos);
  // Nothing is distributed while the model is asked; the channel waits.
  CHECK(c.distributed() == nullptr);
  c.answer(reply_with(good_proposal().dump()));
  const auto* x = c.distributed();
  REQUIRE(x);
  REQUIRE(x->proposal);
  CHECK(x->proposal->summary == "a hosts, b speaks");
  CHECK_FALSE(x->proposal->fallback);
  REQUIRE(x->proposal->assignments.size() == 2);
  CHECK(x->proposal->assignments[1].dependencies == std::vector<std::string>{"a"});
  CHECK(c.reviews("a") == 1);
  CHECK(c.reviews("b") == 1);
  CHECK(c.warnings().empty());
}

TEST_CASE("a channel whose model babbles merges by rule, marked fallback",
          "[actor][channel][llm]") {
  llm_channel c;
  c.answer(reply_with("I would rather not"));
  c.check_fell_back(msg::error_code::invalid_request,
                    "the answer holds no JSON object");
}

TEST_CASE("a channel whose model call fails merges by rule, marked fallback",
          "[actor][channel][llm]") {
  llm_channel c;
  c.answer({0, 0, {}, msg::error_code::llm_unavailable, "circuit open"});
  c.check_fell_back(msg::error_code::llm_unavailable,
                    "LLM call failed (E003): circuit open");
}

TEST_CASE("a channel whose model never answers merges by rule at its deadline",
          "[actor][channel][llm]") {
  llm_channel c;
  c.f.advance(4999ms);
  CHECK(c.distributed() == nullptr);
  c.f.advance(1ms);
  c.check_fell_back(msg::error_code::llm_timeout, "no LLM answer within 5000 ms");
  // A late answer changes nothing: the proposal went out once.
  c.answer(reply_with(good_proposal().dump()));
  std::size_t distributed = 0;
  for (const auto& e : c.events)
    distributed += e.kind == msg::channel_event_kind::proposal_distributed ? 1 : 0;
  CHECK(distributed == 1);
  CHECK(c.reviews("a") == 1);
}

} // namespace actor_actors_channel_llm_aggregation_test
