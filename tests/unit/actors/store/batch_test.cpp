#include "actors/store/batch.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "actors/store/iso_time.hpp"
#include "actors/store/json_text.hpp"
#include "actors/store/row.hpp"
#include "actors/store/store_url.hpp"
#include "actors/store/uuid.hpp"
#include "messages/json.hpp"
#include "support/negotiation_events.hpp"

namespace unit_actors_store_batch_test {

namespace msg = parley::messages;
using namespace parley::actors::store;

namespace {

using namespace parley::test;

const std::string id = "0190a4c2-0000-7000-8000-000000000001";
constexpr std::int64_t t0 = events_t0;

msg::negotiation_record opened() {
  return sample_opened(id);
}

msg::negotiation_event started() {
  return sample_started(id);
}

msg::negotiation_event updated(std::int32_t n, std::int64_t amount) {
  return sample_updated(id, n, amount);
}

msg::negotiation_event agreed() {
  return sample_agreed(id);
}

} // namespace

TEST_CASE("a negotiation that starts and ends in one batch is one insert", "[unit]") {
  batch b;
  b.add(started());
  b.add(updated(2, 8500));
  b.add(updated(3, 9250));
  b.add(agreed());
  CHECK(b.events() == 4);
  auto ops = b.take();
  REQUIRE(ops.size() == 1);
  const auto& op = ops[0];
  CHECK(op.insert);
  CHECK(op.terminal);
  CHECK(op.round_count == 4);
  CHECK(op.row.state == "accepted");
  REQUIRE(op.texts);
  auto rounds = nlohmann::json::parse(op.texts->rounds);
  REQUIRE(rounds.size() == 4);
  // Every round keeps the id of the message that made it.
  CHECK(rounds[0]["message_id"] == "alice:1");
  CHECK(rounds[1]["message_id"] == "m2");
  CHECK(rounds[2]["message_id"] == "m3");
  CHECK(rounds[3]["message_id"] == "bob:2");
  CHECK(rounds[3]["action"] == "accept");
  CHECK(rounds[1]["timestamp"] == "2026-01-01T00:00:02.000Z");
  CHECK(rounds[1]["from"] == "did:key:bob");
  CHECK(rounds[1]["proposal"]["amount"] == 8500);
  auto stored = split_rounds(op.texts->rounds);
  CHECK(rounds_array(stored, 3) == "[" + stored[3].json + "]");
  CHECK(b.empty());
}

TEST_CASE("an insert that ended in the batch carries its bound texts, rendered", "[unit]") {
  batch b;
  b.add(started());
  b.add(updated(2, 8500));
  auto open = b.take();
  REQUIRE(open.size() == 1);
  CHECK_FALSE(open[0].texts); // still open: the writer renders them
  // Rendered at `take`: the opened record, then the update heard after it.
  CHECK(open[0].insert);
  CHECK_FALSE(open[0].terminal);
  CHECK(open[0].round_count == 2);
  CHECK(open[0].row.state == "proposed");
  CHECK(open[0].row.convergence_score == 0.46);
  CHECK(open[0].row.updated_at == t0 + 2000);
  CHECK(nlohmann::json::parse(open[0].row.current_proposal)["amount"] == 8500);
  REQUIRE(open[0].row.rounds.size() == 2);
  CHECK(open[0].row.rounds[1].round == 2);
  CHECK(nlohmann::json::parse(open[0].row.rounds[1].json)["message_id"] == "m2");
  b.add(started());
  b.add(agreed());
  auto ended = b.take();
  REQUIRE(ended.size() == 1);
  REQUIRE(ended[0].texts);
  const auto& texts = *ended[0].texts;
  // As the final record's row renders them, round by round.
  auto reference = to_row(*agreed().record);
  auto expected = texts_of(reference);
  CHECK(texts.rounds == expected.rounds);
  CHECK(texts.created_at == expected.created_at);
  CHECK(texts.expires_at == expected.expires_at);
  CHECK(texts.updated_at == expected.updated_at);
  auto row = ended[0].row;
  CHECK(row.rounds.empty());
  row.rounds = reference.rounds;
  CHECK(nlohmann::json(from_row(row)) == nlohmann::json(from_row(reference)));
  // An event after the end changes the row: the texts go with it.
  b.add(started());
  b.add(agreed());
  b.add(updated(5, 9900));
  auto late = b.take();
  REQUIRE(late.size() == 1);
  CHECK_FALSE(late[0].texts);
}

TEST_CASE("updates in a later batch append rounds and move the state", "[unit]") {
  batch b;
  b.add(started());
  auto first = b.take();
  REQUIRE(first.size() == 1);
  CHECK(first[0].row.state == "initiated");
  b.add(updated(2, 8500));
  auto second = b.take();
  REQUIRE(second.size() == 1);
  CHECK_FALSE(second[0].insert);
  CHECK(second[0].row.state == "proposed");
  CHECK(second[0].row.convergence_score == 0.46); // NUMERIC(3,2)
  CHECK(second[0].round_count == 2);
  b.add(updated(3, 9250));
  CHECK(b.take()[0].row.state == "counter_proposed");
}

TEST_CASE("a terminal event for an update batch carries the rounds past it", "[unit]") {
  batch b;
  b.add(updated(3, 9250));
  b.add(agreed());
  auto ops = b.take();
  REQUIRE(ops.size() == 1);
  CHECK_FALSE(ops[0].insert);
  CHECK(ops[0].terminal);
  REQUIRE(ops[0].row.rounds.size() == 2); // round 3, then the accept
  CHECK(ops[0].row.rounds[1].round == 4);
  CHECK(ops[0].row.status_reason == "agreed");
}

TEST_CASE("an event whose negotiation id is not a UUID is skipped, not written",
          "[unit]") {
  batch b;
  auto e = started();
  e.negotiation_id = "neg_1";
  b.add(e);
  CHECK(b.empty());
  CHECK(b.skipped() == 1);
}

TEST_CASE("a negotiation id is kept only as a lower-case UUID", "[unit]") {
  CHECK(is_uuid("0190A4C2-0000-7000-8000-00000000000F"));
  CHECK_FALSE(is_lower_uuid("0190A4C2-0000-7000-8000-00000000000F"));
  CHECK(is_lower_uuid(id));
  CHECK_FALSE(is_uuid("0190a4c2-0000-7000-8000-00000000000g"));
  CHECK_FALSE(is_uuid("0190a4c2-0000-7000-8000+000000000001"));
  CHECK_FALSE(is_uuid("0190a4c2-0000-7000-8000-0000000000011"));
  batch b;
  b.add(sample_started("0190A4C2-0000-7000-8000-000000000001"));
  CHECK(b.empty());
  CHECK(b.skipped() == 1);
}

TEST_CASE("a non-UUID intent id is stored as a UUID and read back as given", "[unit]") {
  auto row = to_row(opened());
  CHECK(is_uuid(row.intent_id));
  CHECK(row.intent_id == uuid_for_text("intent-logo"));
  CHECK(row.intent_text == "intent-logo");
  // Read back as the database returns the rounds: one array.
  row.rounds = split_rounds(rounds_array(row.rounds));
  CHECK(from_row(row) == opened());
}

TEST_CASE("JSON text escapes what JSON must", "[unit]") {
  std::string out;
  append_json_string(out, "a\"b\\c\n\x01");
  CHECK(out == "\"a\\\"b\\\\c\\n\\u0001\"");
  CHECK(nlohmann::json::parse(out) == "a\"b\\c\n\x01");
  msg::proposal p;
  p.description = "Logo \"v2\"";
  p.terms = msg::json_object{R"({"x":[1,2]})"};
  auto j = nlohmann::json::parse(proposal_text(p));
  CHECK(j["description"] == "Logo \"v2\"");
  CHECK(j["terms"]["x"][1] == 2);
  out.clear();
  append_split(out, msg::incentive_split{});
  CHECK(out == R"({"agent":0.7,"broker":0.1,"validator":0.1,"pool":0.1})");
}

TEST_CASE("ISO timestamps round-trip to the millisecond", "[unit]") {
  CHECK(to_iso(0) == "1970-01-01T00:00:00.000Z");
  CHECK(to_iso(t0 + 1) == "2026-01-01T00:00:00.001Z");
  for (std::int64_t ms : {std::int64_t{0}, t0, t0 + 86'399'999, std::int64_t{951'782'400'123},
                          std::int64_t{-1}}) {
    std::int64_t back = 0;
    REQUIRE(from_iso(to_iso(ms), back));
    CHECK(back == ms);
  }
  // Each day's date is its own, whatever day came before.
  CHECK(to_iso(t0 - 1) == "2025-12-31T23:59:59.999Z");
  CHECK(to_iso(t0 + 86'400'000) == "2026-01-02T00:00:00.000Z");
  CHECK(to_iso(t0 - 1) == "2025-12-31T23:59:59.999Z");
  CHECK(to_iso(std::int64_t{253'402'300'800'000}) == "10000-01-01T00:00:00.000Z");
  std::string appended = "at ";
  append_iso(appended, t0);
  CHECK(appended == "at 2026-01-01T00:00:00.000Z");
  std::int64_t x = 0;
  CHECK(from_iso("2026-01-01 00:00:00.5+00", x));
  CHECK(x == t0 + 500);
  CHECK_FALSE(from_iso("2026-13-01T00:00:00Z", x));
  CHECK_FALSE(from_iso("yesterday", x));
}

TEST_CASE("store URLs name SQLite files or PostgreSQL", "[unit]") {
  store_url u;
  CHECK(parse_store_url("/tmp/x.db", u).empty());
  CHECK(u.kind == store_kind::sqlite);
  CHECK(u.target == "/tmp/x.db");
  CHECK(parse_store_url("sqlite:rel.db", u).empty());
  CHECK(u.target == "rel.db");
  CHECK(parse_store_url("postgresql://me:secret@db:5432/parley", u).empty());
  CHECK(u.kind == store_kind::postgresql);
  CHECK(redacted(u) == "postgresql://me:***@db:5432/parley");
  CHECK_FALSE(parse_store_url("mysql://x", u).empty());
  CHECK_FALSE(parse_store_url("", u).empty());
  CHECK(choose_store_url("a.db", "b.db", "c.db") == "a.db");
  CHECK(choose_store_url("", "b.db", "c.db") == "b.db");
  CHECK(choose_store_url("", nullptr, "c.db") == "c.db");
}

TEST_CASE("an unannounced end is the insert of its whole row", "[unit]") {
  auto end = agreed();
  end.unannounced = true;
  batch b;
  b.add(end);
  auto ops = b.take();
  REQUIRE(ops.size() == 1);
  const auto& op = ops[0];
  CHECK(op.insert);
  CHECK(op.terminal);
  CHECK(op.round_count == static_cast<std::int32_t>(end.record->rounds.size()));
  CHECK(op.row.state == "accepted");
  REQUIRE(op.texts);
  CHECK(nlohmann::json::parse(op.texts->rounds).size() == end.record->rounds.size());
  // The same end announced before: an update of the row written then.
  batch later;
  later.add(agreed());
  auto updates = later.take();
  REQUIRE(updates.size() == 1);
  CHECK_FALSE(updates[0].insert);
  CHECK_FALSE(updates[0].texts);
}

} // namespace unit_actors_store_batch_test
