// The gateway's ledger knows which records the store committed as they are
// (docs/api.md, "Reads show what is committed").

#include <catch2/catch.hpp>

#include "actors/gateway/ledger.hpp"
#include "support/negotiation_events.hpp"

using parley::actors::gateway::ledger;
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

TEST_CASE("a record restored from the store is committed; one not kept is not",
          "[unit]") {
  ledger book;
  book.restore(sample_opened(id));
  CHECK(book.committed(id));
  CHECK_FALSE(book.committed("0190a4c2-0000-7000-8000-000000000002"));
  book.mark_committed("0190a4c2-0000-7000-8000-000000000002", 3, true);
  CHECK(book.find("0190a4c2-0000-7000-8000-000000000002") == nullptr);
}
