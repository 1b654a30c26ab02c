#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "actors/store/uuid.hpp"
#include "messages/store.hpp"

namespace parley::actors::store {

/// Which SQL a back end speaks.
enum class dialect : std::uint8_t { sqlite, postgresql };

/// "`column` is not a terminal state" (not accepted, rejected or expired),
/// spelled as the dialect's expiry index spells its condition (migration
/// 001; for SQLite, as both its current and its earlier text do), so that
/// the planner may answer from that index.
std::string open_states(const char* column, dialect d);

/// "`column` is a channel status that is not final" (not finalized,
/// force_finalized or failed), spelled as idx_channels_open spells it
/// (migration 003), likewise.
std::string open_channels(const char* column, dialect d);

/// What the outcome figures measure of an agreed negotiation
/// (docs/protocols/record-and-schema.md, "Outcome figures").
enum class agreement_measure : std::uint8_t { rounds, seconds };

/// The outcome figures' counts over the last 7 days, one row: the
/// negotiations that ended and those that agreed.
std::string outcome_counts_sql(dialect d);

/// The `measure` of the agreed negotiations of the last 7 days, ascending,
/// one value at the offset bound as the only parameter (LIMIT 1 OFFSET ?1).
std::string agreed_measure_sql(agreement_measure measure, dialect d);

/// The 0-based offset of the nearest-rank `p` percentile (0 < p <= 1) of
/// `n` >= 1 values in ascending order: ceil(p · n) − 1.
std::int64_t nearest_rank_offset(std::int64_t n, double p);

/// The outcome figures from the counts of `outcome_counts_sql` and, when
/// something agreed, `value_at(measure, offset)`: the row of
/// `agreed_measure_sql(measure)` at that offset.
messages::outcome_figures outcome_figures_of(
    std::int64_t ended, std::int64_t agreed,
    const std::function<double(agreement_measure, std::int64_t)>& value_at);

/// How many means `score_means_sql` selects after its count.
inline constexpr std::size_t score_mean_count = 7;

/// The deal scores' figures over the last 7 days (migration 007), one row:
/// how many negotiations have a score, then the mean of the initiator's and
/// the responder's utility, of their advantages, of the welfare, of the Nash
/// distance and of the Pareto distance (NULL when no score has one).
std::string score_means_sql(dialect d);

/// The score means from the row of `score_means_sql`: its count and its
/// means in order, NaN for NULL; none when the count is 0.
caf::optional<messages::score_means>
score_means_of(std::int64_t count, const std::array<double, score_mean_count>& means);

/// A WHERE clause with its parameters, all bound as text.
struct where_clause {
  std::string sql;
  std::vector<std::string> params;
};

/// The query patterns (docs/protocols/record-and-schema.md, "Query patterns") as one
/// WHERE clause over `negotiations n` (placeholders ?1… or $1…, in order), for rows
/// older than the cursor, to be ordered by created_at DESC, id DESC. Throws query_error
/// for an unknown state, a malformed intent id or cursor, or a score outside 0..1.
where_clause where_of(const messages::store_query& q, dialect d);

/// A page's SELECT: `columns_from` ("cols FROM tables"), `where`, newest
/// first, one row more than `limit` (which says whether there is a next
/// page).
std::string page_sql(const char* columns_from, const where_clause& where,
                     std::int32_t limit);

/// The page size `q` asks for, capped to 1..store_query::max_limit.
std::int32_t limit_of(const messages::store_query& q);

/// The cursor after a row: "<created_at ms>_<id>" (a page of crash
/// recovery's: "<expires_at ms>_<id>").
std::string cursor_after(std::int64_t created_at_ms, const std::string& id);

/// A page of crash recovery's open negotiations: the SELECT of
/// `columns_from` ("cols FROM negotiations n ...") for the open rows after
/// `cursor` (empty: from the first) in the order of the expiry index
/// (expires_at, then id, migration 006: the index finds the open rows in
/// that order, so a page reads about as many rows as it holds, also when
/// many share an expires_at), one row more than `limit`
/// (which says whether there is a next page); its parameters go to `where`.
/// With an `owner` (an incarnation; 0: any), only the rows it owns
/// (negotiation_runtime r's owner, migration 009: a cluster's node resumes
/// its own). Throws query_error for a malformed cursor.
std::string open_page_sql(const char* columns_from, const std::string& cursor,
                          std::int32_t limit, dialect d, where_clause& where,
                          std::int64_t owner = 0);

} // namespace parley::actors::store
