#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "actors/store/row.hpp"
#include "messages/events.hpp"

namespace parley::actors::store {

/// What one transaction writes for one negotiation: the events of a batch,
/// folded together.
struct write_op {
  /// A new negotiation (its `started` is in the batch): insert `row` whole.
  /// Otherwise update the row with `row.id`: set its state,
  /// convergence_score, current_proposal, final_proposal (when set),
  /// updated_at and, when `terminal`, status_reason, and append the rounds of
  /// `row.rounds` whose number is past the stored array's end (so a replay
  /// appends nothing).
  bool insert = false;
  bool terminal = false;
  negotiation_row row;
  /// How many rounds the negotiation has once this op is written.
  std::int32_t round_count = 0;
  /// An insert's texts, rendered when its negotiation ended within the batch
  /// (its row is final then), on the store actor's thread while the writer's
  /// thread writes the batch before: the writer only binds them. None for any
  /// other op.
  std::optional<row_texts> texts;
};

/// The events heard since the last commit, folded per negotiation in the
/// order first heard: a negotiation that starts and ends within one batch is
/// one insert. Pure: no CAF, no database.
class batch {
public:
  /// Folds `x` in.
  void add(const messages::negotiation_event& x);

  bool empty() const noexcept { return ops_.empty(); }

  /// Negotiations touched.
  std::size_t size() const noexcept { return ops_.size(); }

  /// Events folded in since the last `take`.
  std::size_t events() const noexcept { return events_; }

  /// Events dropped since the store began because their negotiation id is
  /// not a UUID (seed 003's id column holds UUIDs only).
  std::size_t skipped() const noexcept { return skipped_; }

  /// Whether the batch writes negotiation `id`.
  bool contains(const std::string& id) const { return index_.count(id) > 0; }

  /// The ops, in the order their negotiations were first heard; empties the
  /// batch.
  std::vector<write_op> take();

private:
  /// The op of negotiation `id`, new if the batch has none; null when the
  /// store cannot keep `id`.
  write_op* op_for(const std::string& id);

  std::vector<write_op> ops_;
  std::unordered_map<std::string, std::size_t> index_;
  std::size_t events_ = 0;
  std::size_t skipped_ = 0;
};

} // namespace parley::actors::store
