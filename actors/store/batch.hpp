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
  /// A new negotiation (its `started` is in the batch, or its end is
  /// `unannounced`): insert `row` whole.
  /// Otherwise update the row with `row.id`: set its state,
  /// convergence_score, current_proposal, final_proposal (when set),
  /// updated_at and, when `terminal`, status_reason and score, and append the rounds of
  /// `row.rounds` whose number is past the stored array's end (so a replay
  /// appends nothing).
  bool insert = false;
  bool terminal = false;
  negotiation_row row;
  /// How many rounds the negotiation has once this op is written.
  std::int32_t round_count = 0;
  /// An insert's texts, rendered when its negotiation ended within the batch
  /// (its row is final then), on the store actor's thread while the writer's
  /// thread writes the batch before: the writer only binds them (and
  /// `row.rounds` is empty: the rounds are rendered straight into
  /// `texts->rounds`). None for any other op.
  std::optional<row_texts> texts;
};

/// The events heard since the last commit, folded per negotiation in the
/// order first heard: a negotiation that starts and ends within one batch is
/// one insert. A new negotiation's row is rendered once, from the last
/// record heard and the rounds after it: at its end, or at `take` if it is
/// still open then. Pure: no CAF, no database.
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
  /// not a UUID (the table's id column holds UUIDs only).
  std::size_t skipped() const noexcept { return skipped_; }

  /// Whether the batch writes negotiation `id`.
  bool contains(const std::string& id) const { return index_.count(id) > 0; }

  /// The ops, in the order their negotiations were first heard; empties the
  /// batch.
  std::vector<write_op> take();

private:
  /// What the batch heard of a new negotiation (its `started` is in the
  /// batch), to be rendered into its op's row.
  struct unrendered {
    /// The last record heard: opened or final.
    messages::shared_record record;
    /// The rounds heard after `record`, newest last.
    std::vector<messages::negotiation_round> rounds;
    /// The last update heard after `record`: its round (even one heard
    /// before) and convergence score set the row's current columns.
    std::optional<messages::negotiation_round> last_update;
    double convergence_score = 0;
    /// Whether the row lags behind what is heard.
    bool pending = false;
  };

  /// The index of negotiation `id`'s op (and its `unrendered`), new if the
  /// batch has none; `npos` when the store cannot keep `id`.
  std::size_t op_for(const std::string& id);

  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// Renders what `u` holds into `op`'s row.
  static void render(write_op& op, unrendered& u);

  std::vector<write_op> ops_;
  std::vector<unrendered> unrendered_;
  std::unordered_map<std::string, std::size_t> index_;
  std::size_t events_ = 0;
  std::size_t skipped_ = 0;
};

} // namespace parley::actors::store
