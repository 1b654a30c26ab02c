#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "messages/negotiation_record.hpp"

namespace parley::actors::store {

/// A round as the rounds array holds it (JSON text), with its number.
struct stored_round {
  std::int32_t round = 0;
  std::string json;
};

/// One negotiation as the back ends write and read it: the table's columns
/// (docs/protocols/record-and-schema.md, "The negotiations table") (JSONB as JSON text,
/// an empty text standing for NULL; TIMESTAMPTZ as Unix milliseconds) and
/// negotiation_runtime's (what the runtime needs beyond them; `intent_text` is the
/// runtime's intent id when it is not a UUID, and `intent_id` then uuid_for_text of
/// it).
struct negotiation_row {
  std::string id;
  std::string intent_id;
  std::string intent_text;
  std::string initiator_did;
  std::string responder_did;
  std::string state;
  /// {round, proposal, timestamp, from} plus action, reason and message_id, which
  /// recovery needs (docs/protocols/record-and-schema.md, "The negotiations table").
  std::vector<stored_round> rounds;
  double convergence_score = 0;
  std::string current_proposal;
  std::string final_proposal;
  std::string incentive_split;
  std::int32_t max_rounds = 10;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
  std::int64_t updated_at = 0;
  std::string room_id;
  std::int64_t round_timeout_ms = 0;
  std::int64_t total_timeout_ms = 0;
  std::string status_reason;
  /// The deal score as JSON (migration 007); empty for none.
  std::string score;
};

/// Every column of `record` but the rounds.
void set_columns(negotiation_row& row, const messages::negotiation_record& record);

/// The columns and rounds of `record`.
negotiation_row to_row(const messages::negotiation_record& record);

/// What a new row binds beyond negotiation_row's texts, rendered: its rounds
/// as one JSON array, its times in ISO 8601.
struct row_texts {
  std::string rounds;
  std::string created_at;
  std::string expires_at;
  std::string updated_at;
};

/// The texts `row` binds when it is inserted.
row_texts texts_of(const negotiation_row& row);

/// Every column of `record` but the rounds into `row` (whose rounds it
/// clears), and the texts its insert binds, the rounds of `record` rendered
/// straight into their array: what a negotiation that ends in the batch
/// that inserts it needs, without a text per round (as to_row, then
/// texts_of, give it).
row_texts final_texts(negotiation_row& row, const messages::negotiation_record& record);

/// `rounds` (those numbered above `after`) as one JSON array.
std::string rounds_array(const std::vector<stored_round>& rounds, std::int64_t after = 0);

/// A rounds array as the database returns it, split into rounds. Throws
/// messages::json_error when it is not an array of rounds.
std::vector<stored_round> split_rounds(const std::string& array);

/// The record a row stands for. Throws messages::json_error when a JSON
/// column does not have the shape the store writes.
messages::negotiation_record from_row(const negotiation_row& row);

/// The convergence_score column is NUMERIC(3,2): rounded to two decimals and
/// clamped to 0..1 (NaN counts as 0).
double to_numeric_3_2(double x);

} // namespace parley::actors::store
