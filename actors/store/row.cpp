#include "actors/store/row.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "actors/store/iso_time.hpp"
#include "actors/store/json_text.hpp"
#include "actors/store/seed_state.hpp"
#include "actors/store/uuid.hpp"
#include "messages/json.hpp"

namespace parley::actors::store {

using nlohmann::json;

namespace {

std::int64_t read_iso(const json& j, const std::string& path) {
  std::int64_t ms = 0;
  if (!j.is_string() || !from_iso(j.get<std::string>(), ms))
    throw messages::json_error(path, "expected an ISO 8601 UTC timestamp");
  return ms;
}

messages::negotiation_round read_round(const json& j, const std::string& path) {
  if (!j.is_object())
    throw messages::json_error(path, "expected a round object");
  messages::negotiation_round x;
  messages::object_reader r{j, path};
  r.required("round", x.round);
  r.required("from", x.from_agent);
  r.required("proposal", x.proposal);
  r.optional("action", x.action);
  r.optional("reason", x.reason);
  r.optional("message_id", x.message_id);
  x.timestamp = read_iso(j.at("timestamp"), path + ".timestamp");
  return x;
}

/// `x` as JSON text; every negotiation of a run usually has the same split,
/// so the last one's text is kept (per thread: the store's and the CLI's).
const std::string& split_text(const messages::incentive_split& x) {
  thread_local messages::incentive_split last;
  thread_local std::string text;
  // Bit for bit: -0.0 == 0.0, but their texts differ.
  static_assert(sizeof(x) == 4 * sizeof(double), "incentive_split is four doubles");
  if (text.empty() || std::memcmp(&x, &last, sizeof(x)) != 0) {
    text.clear();
    append_split(text, x);
    last = x;
  }
  return text;
}

} // namespace

double to_numeric_3_2(double x) {
  if (!std::isfinite(x) || x <= 0)
    return 0;
  return std::min(1.0, std::round(x * 100) / 100);
}

void set_columns(negotiation_row& row, const messages::negotiation_record& record) {
  row.id = record.id;
  if (is_uuid(record.intent_id)) {
    row.intent_id = record.intent_id;
    for (auto& c : row.intent_id)
      if (c >= 'A' && c <= 'F')
        c = static_cast<char>(c - 'A' + 'a');
    row.intent_text.clear();
  } else {
    row.intent_id = uuid_for_text(record.intent_id);
    row.intent_text = record.intent_id;
  }
  row.initiator_did = record.initiator;
  row.responder_did = record.responder;
  row.state = to_string(seed_state_of(record));
  row.convergence_score = to_numeric_3_2(record.convergence_score);
  // Written into the texts' own buffers: a row set twice (started, then
  // ended) allocates them once.
  row.current_proposal.clear();
  append_proposal(row.current_proposal, record.current_proposal);
  row.final_proposal.clear();
  if (record.final_proposal)
    append_proposal(row.final_proposal, *record.final_proposal);
  row.incentive_split = split_text(record.incentive_split);
  row.max_rounds = record.max_rounds;
  row.created_at = record.created_at;
  row.expires_at = record.expires_at;
  row.updated_at = record.updated_at;
  row.room_id = record.room_id;
  row.round_timeout_ms = record.round_timeout_ms;
  row.total_timeout_ms = record.total_timeout_ms;
  row.status_reason = record.status_reason;
  row.score.clear();
  if (record.score)
    row.score = nlohmann::json(*record.score).dump();
}

negotiation_row to_row(const messages::negotiation_record& record) {
  negotiation_row row;
  set_columns(row, record);
  row.rounds.reserve(record.rounds.size());
  for (const auto& r : record.rounds)
    row.rounds.push_back({r.round, round_text(r)});
  return row;
}

std::string rounds_array(const std::vector<stored_round>& rounds, std::int64_t after) {
  std::string out = "[";
  for (const auto& r : rounds) {
    if (r.round <= after)
      continue;
    if (out.size() > 1)
      out.push_back(',');
    out += r.json;
  }
  out.push_back(']');
  return out;
}

namespace {

/// The texts an insert of `row` binds, its rounds' array being `rounds`.
row_texts texts_with(const negotiation_row& row, std::string rounds) {
  return {std::move(rounds), to_iso(row.created_at), to_iso(row.expires_at),
          to_iso(row.updated_at)};
}

} // namespace

row_texts texts_of(const negotiation_row& row) {
  return texts_with(row, rounds_array(row.rounds));
}

row_texts final_texts(negotiation_row& row,
                      const messages::negotiation_record& record) {
  set_columns(row, record);
  row.rounds.clear();
  std::string rounds;
  rounds.reserve(2 + 192 * record.rounds.size()); // as round_text's
  rounds.push_back('[');
  for (const auto& r : record.rounds) {
    if (rounds.size() > 1)
      rounds.push_back(',');
    append_round(rounds, r);
  }
  rounds.push_back(']');
  return texts_with(row, std::move(rounds));
}

std::vector<stored_round> split_rounds(const std::string& array) {
  auto j = json::parse(array, nullptr, false);
  if (j.is_discarded() || !j.is_array())
    throw messages::json_error("rounds", "expected a JSON array");
  std::vector<stored_round> out;
  out.reserve(j.size());
  for (const auto& x : j) {
    if (!x.is_object() || !x.contains("round") || !x["round"].is_number_integer())
      throw messages::json_error("rounds", "expected rounds with a number");
    out.push_back({x["round"].get<std::int32_t>(), x.dump()});
  }
  return out;
}

namespace {

json parse_column(const std::string& text, const char* column) {
  auto j = json::parse(text, nullptr, false);
  if (j.is_discarded())
    throw messages::json_error(column, "is not JSON");
  return j;
}

} // namespace

messages::negotiation_record from_row(const negotiation_row& row) {
  messages::negotiation_record x;
  x.id = row.id;
  x.room_id = row.room_id;
  x.intent_id = row.intent_text.empty() ? row.intent_id : row.intent_text;
  seed_state state;
  if (!from_string(row.state, state))
    throw messages::json_error("state", "unknown state \"" + row.state + "\"");
  x.status = status_of(state);
  x.initiator = row.initiator_did;
  x.responder = row.responder_did;
  if (!row.current_proposal.empty())
    messages::read(parse_column(row.current_proposal, "current_proposal"),
                   "current_proposal", x.current_proposal);
  if (!row.final_proposal.empty()) {
    messages::proposal p;
    messages::read(parse_column(row.final_proposal, "final_proposal"), "final_proposal",
                   p);
    x.final_proposal = std::move(p);
  }
  for (std::size_t i = 0; i < row.rounds.size(); ++i)
    x.rounds.push_back(read_round(parse_column(row.rounds[i].json, "rounds"),
                                  "rounds[" + std::to_string(i) + "]"));
  x.max_rounds = row.max_rounds;
  x.round_timeout_ms = row.round_timeout_ms;
  x.total_timeout_ms = row.total_timeout_ms;
  x.convergence_score = row.convergence_score;
  if (!row.incentive_split.empty())
    messages::read(parse_column(row.incentive_split, "incentive_split"),
                   "incentive_split", x.incentive_split);
  x.created_at = row.created_at;
  x.updated_at = row.updated_at;
  x.expires_at = row.expires_at;
  x.status_reason = row.status_reason;
  if (!row.score.empty()) {
    messages::deal_score score;
    messages::read(parse_column(row.score, "score"), "score", score);
    x.score = std::move(score);
  }
  return x;
}

} // namespace parley::actors::store
