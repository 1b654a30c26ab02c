#include "actors/store/postgresql_copy.hpp"

#include <algorithm>
#include <string>
#include <tuple>

#include <pqxx/pqxx>

#include "actors/store/json_text.hpp"
#include "actors/store/row.hpp"

namespace parley::actors::store {

namespace {

const std::vector<std::string> negotiation_columns = {"id",
                                                      "intent_id",
                                                      "initiator_did",
                                                      "responder_did",
                                                      "state",
                                                      "rounds",
                                                      "convergence_score",
                                                      "current_proposal",
                                                      "final_proposal",
                                                      "incentive_split",
                                                      "max_rounds",
                                                      "created_at",
                                                      "expires_at",
                                                      "updated_at"};

const std::vector<std::string> runtime_columns = {"negotiation_id",
                                                  "room_id",
                                                  "round_timeout_ms",
                                                  "total_timeout_ms",
                                                  "status_reason",
                                                  "intent_text",
                                                  "score",
                                                  "owner"};

/// A JSONB column's text: NULL when the row holds none.
const char* json_or_null(const std::string& text) {
  return text.empty() ? nullptr : text.c_str();
}

void copy_negotiations(pqxx::transaction_base& w, const std::vector<write_op>& ops) {
  pqxx::stream_to out{w, "negotiations", negotiation_columns};
  std::string score;
  for (const auto& op : ops) {
    if (!op.insert)
      continue;
    // Rendered by the store actor when the negotiation ended in the batch.
    auto rendered = op.texts ? row_texts{} : texts_of(op.row);
    const auto& texts = op.texts ? *op.texts : rendered;
    const auto& row = op.row;
    score.clear();
    append_json_number(score, row.convergence_score);
    auto current = json_or_null(row.current_proposal);
    auto final_proposal = json_or_null(row.final_proposal);
    auto split = json_or_null(row.incentive_split);
    out << std::tie(row.id, row.intent_id, row.initiator_did, row.responder_did,
                    row.state, texts.rounds, score, current, final_proposal, split,
                    row.max_rounds, texts.created_at, texts.expires_at,
                    texts.updated_at);
  }
  out.complete();
}

void copy_runtime(pqxx::transaction_base& w, const std::vector<write_op>& ops,
                  std::int64_t owner) {
  pqxx::stream_to out{w, "negotiation_runtime", runtime_columns};
  auto owner_text = std::to_string(owner);
  auto owned = owner == 0 ? nullptr : owner_text.c_str();
  for (const auto& op : ops) {
    if (!op.insert)
      continue;
    const auto& row = op.row;
    auto score = json_or_null(row.score);
    out << std::tie(row.id, row.room_id, row.round_timeout_ms, row.total_timeout_ms,
                    row.status_reason, row.intent_text, score, owned);
  }
  out.complete();
}

} // namespace

void copy_inserts(pqxx::transaction_base& w, const std::vector<write_op>& ops,
                  std::int64_t owner) {
  if (std::none_of(ops.begin(), ops.end(),
                   [](const write_op& op) { return op.insert; }))
    return;
  // The runtime rows reference the negotiations rows: those first.
  copy_negotiations(w, ops);
  copy_runtime(w, ops, owner);
}

} // namespace parley::actors::store
