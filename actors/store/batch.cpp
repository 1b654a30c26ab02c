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

/// Sets the columns an update moves: the stored state its round count gives,
/// the convergence score, and the current proposal and time of `round`.
void apply_update(write_op& op, const messages::negotiation_round& round,
                  double convergence_score) {
  op.row.state = to_string(seed_state_of(messages::negotiation_status::countering,
                                         static_cast<std::size_t>(op.round_count)));
  op.row.convergence_score = to_numeric_3_2(convergence_score);
  op.row.current_proposal.clear();
  append_proposal(op.row.current_proposal, round.proposal);
  op.row.updated_at = round.timestamp;
}

} // namespace

std::size_t batch::op_for(const std::string& id) {
  // try_emplace: no node is built for a negotiation already in the batch.
  auto [i, added] = index_.try_emplace(id, ops_.size());
  if (added) {
    // Checked once per negotiation and batch, not once per event.
    if (!is_lower_uuid(id)) {
      index_.erase(i);
      return npos;
    }
    ops_.emplace_back();
    ops_.back().row.id = id;
    unrendered_.emplace_back();
  }
  return i->second;
}

void batch::render(write_op& op, unrendered& u) {
  if (!u.pending)
    return;
  op.row = to_row(*u.record);
  for (const auto& round : u.rounds)
    op.row.rounds.push_back({round.round, round_text(round)});
  if (u.last_update)
    apply_update(op, *u.last_update, u.convergence_score);
  u.pending = false;
}

void batch::add(const messages::negotiation_event& x) {
  ++events_;
  // An event without what its kind carries writes nothing.
  if (x.kind == negotiation_event_kind::updated ? !x.round : !x.record)
    return;
  auto at = op_for(x.negotiation_id);
  if (at == npos) {
    ++skipped_;
    return;
  }
  auto& op = ops_[at];
  auto& u = unrendered_[at];
  op.texts.reset(); // what they render changes now
  switch (x.kind) {
  case negotiation_event_kind::started: {
    op.insert = true;
    op.terminal = false;
    op.round_count = static_cast<std::int32_t>(x.record->rounds.size());
    u = unrendered{x.record, {}, std::nullopt, 0, true};
    return;
  }
  case negotiation_event_kind::updated: {
    const auto& round = *x.round;
    if (!op.insert) {
      // An update to a row written before: rendered as it comes.
      if (round.round > op.round_count) {
        op.row.rounds.push_back({round.round, round_text(round)});
        op.round_count = round.round;
      }
      apply_update(op, round, x.convergence_score);
      return;
    }
    if (round.round > op.round_count) {
      u.rounds.push_back(round);
      op.round_count = round.round;
    }
    u.last_update = round;
    u.convergence_score = x.convergence_score;
    u.pending = true;
    return;
  }
  case negotiation_event_kind::agreed:
  case negotiation_event_kind::rejected:
  case negotiation_event_kind::expired: {
    op.terminal = true;
    // Unannounced: the store settles and heard nothing of it before, so its
    // row is new.
    op.insert = op.insert || x.unannounced;
    if (op.insert) {
      // Its final record holds every round: the row is final now.
      u = unrendered{x.record, {}, std::nullopt, 0, false};
      op.texts = final_texts(op.row, *x.record);
      op.round_count =
          std::max(op.round_count, static_cast<std::int32_t>(x.record->rounds.size()));
      return;
    }
    // Every column from the final record, and the rounds not heard before.
    set_columns(op.row, *x.record);
    append_rounds(op, *x.record);
    return;
  }
  }
}

std::vector<write_op> batch::take() {
  for (std::size_t i = 0; i < ops_.size(); ++i)
    render(ops_[i], unrendered_[i]);
  index_.clear();
  unrendered_.clear();
  events_ = 0;
  std::vector<write_op> out;
  out.swap(ops_);
  // The next batch is likely as big: no regrowing (and moving rows) on the way.
  ops_.reserve(out.size());
  index_.reserve(out.size());
  return out;
}

} // namespace parley::actors::store
