#include "actors/store/batch.hpp"

#include <algorithm>

#include "actors/store/json_text.hpp"
#include "actors/store/seed_state.hpp"
#include "actors/store/uuid.hpp"

namespace parley::actors::store {

using messages::negotiation_event_kind;

namespace {

/// Appends the rounds of `record` past `op.round_count`.
void append_rounds(write_op& op, const messages::negotiation_record& record) {
  for (const auto& round : record.rounds)
    if (round.round > op.round_count)
      op.row.rounds.push_back({round.round, round_text(round)});
  op.round_count = std::max(op.round_count, static_cast<std::int32_t>(record.rounds.size()));
}

/// Whether the store can keep negotiation `id` (seed 003's id is a UUID; the
/// store writes it in lower case, as PostgreSQL prints it).
bool storable(const std::string& id) {
  return is_uuid(id) && id.find_first_of("ABCDEF") == std::string::npos;
}

} // namespace

write_op* batch::op_for(const std::string& id) {
  // try_emplace: no node is built for a negotiation already in the batch.
  auto [i, added] = index_.try_emplace(id, ops_.size());
  if (added) {
    // Checked once per negotiation and batch, not once per event.
    if (!storable(id)) {
      index_.erase(i);
      return nullptr;
    }
    ops_.emplace_back();
    ops_.back().row.id = id;
  }
  return &ops_[i->second];
}

void batch::add(const messages::negotiation_event& x) {
  ++events_;
  // An event without what its kind carries writes nothing.
  if (x.kind == negotiation_event_kind::updated ? !x.round : !x.record)
    return;
  auto* found = op_for(x.negotiation_id);
  if (found == nullptr) {
    ++skipped_;
    return;
  }
  auto& op = *found;
  op.texts.reset(); // what they render changes now
  switch (x.kind) {
  case negotiation_event_kind::started: {
    op.insert = true;
    op.terminal = false;
    op.row = to_row(*x.record);
    op.round_count = static_cast<std::int32_t>(x.record->rounds.size());
    return;
  }
  case negotiation_event_kind::updated: {
    const auto& round = *x.round;
    if (round.round > op.round_count) {
      op.row.rounds.push_back({round.round, round_text(round)});
      op.round_count = round.round;
    }
    op.row.state = to_string(
        seed_state_of(messages::negotiation_status::countering,
                      static_cast<std::size_t>(op.round_count)));
    op.row.convergence_score = to_numeric_3_2(x.convergence_score);
    op.row.current_proposal.clear();
    append_proposal(op.row.current_proposal, round.proposal);
    op.row.updated_at = round.timestamp;
    return;
  }
  case negotiation_event_kind::agreed:
  case negotiation_event_kind::rejected:
  case negotiation_event_kind::expired: {
    // Every column from the final record, and the rounds not heard before.
    set_columns(op.row, *x.record);
    append_rounds(op, *x.record);
    op.terminal = true;
    if (op.insert)
      op.texts = texts_of(op.row);
    return;
  }
  }
}

std::vector<write_op> batch::take() {
  index_.clear();
  events_ = 0;
  std::vector<write_op> out;
  out.swap(ops_);
  // The next batch is likely as big: no regrowing (and moving rows) on the way.
  ops_.reserve(out.size());
  index_.reserve(out.size());
  return out;
}

} // namespace parley::actors::store
