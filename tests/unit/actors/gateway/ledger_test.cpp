// The gateway's ledger knows which records the store committed as they are
// (docs/api.md, "Reads show what is committed"), and rebuilds a move's
// result from the rounds (docs/api.md, "Idempotency").

#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "actors/gateway/ledger.hpp"
#include "actors/negotiation/rules.hpp"
#include "support/negotiation_events.hpp"

namespace unit_actors_gateway_ledger_test {

using parley::actors::gateway::ledger;
using parley::actors::negotiation::effects;
using parley::actors::negotiation::opening;
using parley::actors::negotiation::rules;
using parley::messages::agent_accept;
using parley::messages::agent_counter;
using parley::messages::negotiation_event;
using parley::messages::negotiation_event_kind;
using parley::messages::negotiation_record;
using parley::messages::negotiation_status;
using parley::messages::proposal;
using parley::messages::shared_record;
using namespace parley::test;
namespace msg = parley::messages;

namespace {

const std::string id = "0190a4c2-0000-7000-8000-000000000001";

/// The negotiation expires after round `rounds`: its end adds no round.
msg::negotiation_event sample_expired(const std::string& id, int rounds) {
  auto r = sample_opened(id);
  for (int n = 2; n <= rounds; ++n)
    r.rounds.push_back(
        sample_round(n, 8500, msg::round_action::counter, "m" + std::to_string(n)));
  r.status = msg::negotiation_status::expired;
  msg::negotiation_event e;
  e.kind = msg::negotiation_event_kind::expired;
  e.negotiation_id = id;
  e.record = msg::shared_record{std::move(r)};
  return e;
}

} // namespace

TEST_CASE("a record is committed once the store confirmed its rounds, and its end",
          "[unit]") {
  ledger book;
  REQUIRE(book.apply(sample_started(id)) != nullptr);
  CHECK_FALSE(book.committed(id));
  book.mark_committed(id, 1, false);
  CHECK(book.committed(id));
  // A new round is not committed until the store says so.
  book.apply(sample_updated(id, 2, 8500));
  CHECK_FALSE(book.committed(id));
  book.mark_committed(id, 2, false);
  CHECK(book.committed(id));
  // An older confirmation does not undo a newer one.
  book.mark_committed(id, 1, false);
  CHECK(book.committed(id));
  // An expiry adds no round: its end must be confirmed too.
  book.apply(sample_expired(id, 2));
  CHECK_FALSE(book.committed(id));
  book.mark_committed(id, 2, true);
  CHECK(book.committed(id));
}

TEST_CASE("a record restored from the store is committed, and one not kept is not",
          "[unit]") {
  ledger book;
  book.restore(sample_opened(id));
  CHECK(book.committed(id));
  CHECK_FALSE(book.committed("0190a4c2-0000-7000-8000-000000000002"));
  book.mark_committed("0190a4c2-0000-7000-8000-000000000002", 3, true);
  CHECK(book.find("0190a4c2-0000-7000-8000-000000000002") == nullptr);
}

namespace {

constexpr std::int64_t t0 = 1'700'000'000'000;

proposal offer(std::int64_t amount) {
  proposal x;
  x.amount = amount;
  return x;
}

/// A negotiation `id` between alice and bob run by the rules, whose events
/// a ledger hears as the gateway does.
struct story {
  effects opened;
  rules r;

  explicit story(const std::string& id)
      : r(
            [&] {
              opening x;
              x.id = id;
              x.room_id = "room-a";
              x.message_id = "api-start-" + id;
              x.initiator = "alice";
              x.responder = "bob";
              x.proposal = offer(10000);
              return x;
            }(),
            t0, opened) {}

  negotiation_event started() const {
    negotiation_event x;
    x.kind = negotiation_event_kind::started;
    x.negotiation_id = r.id();
    x.record = shared_record{r.record()};
    return x;
  }

  /// Bob's counter `message_id`, as its `updated` event.
  negotiation_event counter(const std::string& message_id, std::int64_t amount,
                            std::int64_t at) {
    effects out;
    r.on_message(agent_counter{message_id, r.id(), "bob", offer(amount), "lower"}, at,
                 out);
    REQUIRE(out.event == negotiation_event_kind::updated);
    negotiation_event x;
    x.kind = negotiation_event_kind::updated;
    x.negotiation_id = r.id();
    x.message_id = message_id;
    x.round = r.record().rounds.back();
    x.convergence_score = r.record().convergence_score;
    return x;
  }

  /// The accept `message_id` of `from`, as its `agreed` event.
  negotiation_event accept(const std::string& message_id, std::int64_t at,
                           const std::string& from = "alice") {
    effects out;
    r.on_message(agent_accept{message_id, r.id(), from}, at, out);
    REQUIRE(out.event == negotiation_event_kind::agreed);
    negotiation_event x;
    x.kind = negotiation_event_kind::agreed;
    x.negotiation_id = r.id();
    x.message_id = message_id;
    x.record = shared_record{r.take_record()};
    return x;
  }
};

} // namespace

TEST_CASE("a move's result is the record right after it, before and after the end",
          "[unit]") {
  ledger book;
  story s{"n1"};
  REQUIRE(book.apply(s.started()) != nullptr);
  book.apply(s.counter("b1", 8000, t0 + 1000));
  const auto countered = *book.find("n1");
  REQUIRE(countered.status == negotiation_status::countering);
  auto result = book.result_of("n1", "b1");
  REQUIRE(result);
  CHECK(*result == countered);
  book.apply(s.accept("a1", t0 + 2000));
  const auto accepted = *book.find("n1");
  REQUIRE(accepted.status == negotiation_status::accepted);
  // After the end: the counter's result is still the record right after it,
  // and the accept's is the final record, whose last round is the accept.
  result = book.result_of("n1", "b1");
  REQUIRE(result);
  CHECK(*result == countered);
  result = book.result_of("n1", "a1");
  REQUIRE(result);
  CHECK(*result == accepted);
  CHECK(result->rounds.back().message_id == "a1");
  CHECK_FALSE(book.result_of("n1", "zz"));
  CHECK_FALSE(book.result_of("n2", "b1"));
}

TEST_CASE("the moves of a negotiation restored after a restart are recognised",
          "[unit]") {
  story s{"n1"};
  ledger before;
  before.apply(s.started());
  before.apply(s.counter("b1", 8000, t0 + 1000));
  const auto countered = *before.find("n1");
  ledger after;
  after.restore(countered);
  auto result = after.result_of("n1", "b1");
  REQUIRE(result);
  CHECK(*result == countered);
  result = after.result_of("n1", "api-start-n1");
  REQUIRE(result);
  CHECK(result->rounds.size() == 1);
  CHECK(result->status == negotiation_status::proposed);
}

TEST_CASE("ended negotiations past the limit are forgotten, open ones kept", "[unit]") {
  ledger book{1};
  story first{"n1"};
  story second{"n2"};
  story open{"n3"};
  for (auto* s : {&first, &second, &open})
    book.apply(s->started());
  book.apply(first.accept("a1", t0 + 1000, "bob"));
  CHECK(book.result_of("n1", "a1"));
  book.apply(second.accept("a2", t0 + 2000, "bob"));
  // The store answers for n1 now (the gateway asks it).
  CHECK(book.find("n1") == nullptr);
  CHECK_FALSE(book.result_of("n1", "a1"));
  CHECK(book.result_of("n2", "a2"));
  CHECK(book.find("n3") != nullptr);
  CHECK(book.size() == 2);
}

} // namespace unit_actors_gateway_ledger_test
