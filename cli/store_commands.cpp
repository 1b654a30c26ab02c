#include "cli/store_commands.hpp"

#include <iomanip>

#include <CLI/CLI.hpp>

#include "actors/store/backend.hpp"
#include "actors/store/presence.hpp"
#include "cli/chosen_store.hpp"
#include "messages/json.hpp"

namespace parley::cli {

namespace store = actors::store;

namespace {

/// The migration whose column the outcome figures read
/// (negotiation_runtime.score, docs/protocols/record-and-schema.md).
constexpr int stats_migration = 7;

void print_stats(const messages::store_stats& x, std::ostream& out) {
  out << std::fixed << std::setprecision(2);
  out << "success rate by initiator (30 days):\n";
  if (x.success_by_agent.empty())
    out << "  (none)\n";
  for (const auto& r : x.success_by_agent)
    out << "  " << r.initiator << "  accepted " << r.accepted << "  rejected "
        << r.rejected << "  expired " << r.expired << "  success " << r.success_rate_pct
        << " %\n";
  out << "average rounds by outcome (7 days):\n";
  if (x.rounds_by_outcome.empty())
    out << "  (none)\n";
  for (const auto& r : x.rounds_by_outcome)
    out << "  " << r.state << "  " << r.avg_rounds << " rounds\n";
  out << "current negotiations (24 hours):\n";
  if (x.current.empty())
    out << "  (none)\n";
  for (const auto& r : x.current)
    out << "  " << r.state << "  " << r.count << "  average age " << r.avg_age_seconds
        << " s\n";
  out << "expiration rate (7 days): " << x.expiration.expired << " expired, "
      << x.expiration.completed << " completed";
  if (x.expiration.expiration_rate_pct)
    out << ", " << *x.expiration.expiration_rate_pct << " %";
  out << "\nhigh-convergence negotiations (counter_proposed, score > 0.8):\n";
  if (x.high_convergence.empty())
    out << "  (none)\n";
  for (const auto& r : x.high_convergence)
    out << "  " << r.id << "  " << r.initiator << " / " << r.responder << "  score "
        << r.convergence_score << "  rounds " << r.round_count << "\n";
  const auto& o = x.outcomes;
  out << "outcomes (7 days): " << o.agreed << " agreed of " << o.ended << " ended";
  if (o.agreement_rate_pct)
    out << ", " << *o.agreement_rate_pct << " %";
  out << "\n";
  if (o.rounds_to_agreement)
    out << "  rounds to agreement  p50 " << o.rounds_to_agreement->p50 << "  p90 "
        << o.rounds_to_agreement->p90 << "\n";
  if (o.seconds_to_agreement)
    out << "  seconds to agreement  p50 " << o.seconds_to_agreement->p50 << "  p90 "
        << o.seconds_to_agreement->p90 << "\n";
  if (o.scores) {
    const auto& m = *o.scores;
    out << "  deal scores (" << m.negotiations << " scored)  mean utility "
        << m.mean_utility.initiator << " / " << m.mean_utility.responder
        << " (initiator / responder)  mean advantage " << m.mean_advantage.initiator
        << " / " << m.mean_advantage.responder << "  mean welfare " << m.mean_welfare;
    if (m.mean_nash_distance)
      out << "  mean Nash distance " << *m.mean_nash_distance;
    if (m.mean_pareto_distance)
      out << "  mean Pareto distance " << *m.mean_pareto_distance;
    out << "\n";
  }
}

} // namespace

store_commands::store_commands(CLI::App& app) {
  auto store_help = "Store URL: a path or sqlite:PATH (SQLite), or postgresql://… "
                    "(default: PARLEY_STORE, else store.url, else ./parley.db)";
  db_ = app.add_subcommand("db", "The negotiation store: schema migrations "
                                 "and maintenance");
  db_->require_subcommand(1);
  db_->add_option("--store", store_flag_, store_help);
  db_->add_subcommand("migrate", "Apply the migrations the store lacks");
  db_->add_subcommand("verify", "Check every column, constraint, index, the trigger "
                                "and the expiry function; exit 1 naming what is missing");
  db_->add_subcommand("rollback", "Undo the newest applied migration");
  db_->add_subcommand("expire", "Expire open negotiations past expires_at "
                                "(expire_stale_negotiations())");
  auto* archive = db_->add_subcommand(
      "archive", "Move ended negotiations older than --days to negotiations_archive, "
                 "in one transaction");
  archive->add_option("--days", archive_days_, "Age in days")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  for (auto* sub : db_->get_subcommands({}))
    sub->add_option("--store", store_flag_, store_help);
  stats_ = app.add_subcommand("stats", "The store's monitoring queries: success rate by "
                                       "agent, average rounds, current stats, "
                                       "expiration rate, high-convergence negotiations");
  stats_->add_option("--store", store_flag_, store_help);
  stats_->add_flag("--json", json_, "Print one JSON object");
}

bool store_commands::chosen() const {
  return db_->parsed() || stats_->parsed();
}

int store_commands::run(const config::settings& settings, std::ostream& out,
                        std::ostream& err) const {
  store::store_url url;
  if (!chosen_store(store_flag_, settings, url, err))
    return 2;
  try {
    // Only `migrate` makes a store; the others never leave an empty file
    // where a store was expected (docs/configuration.md).
    auto migrating =
        db_->parsed() && db_->get_subcommands().front()->get_name() == "migrate";
    auto why = migrating ? store::leftover_log(url) : store::absent_file(url);
    if (!why.empty()) {
      err << "parley: store: " << why
          << (migrating ? "\n"
                        : "; `parley db migrate --store " + store::redacted(url) +
                              "` makes a new, empty store\n");
      return 1;
    }
    auto db = store::open_backend(url);
    if (stats_->parsed()) {
      if (auto version = db->applied_version(); version < stats_migration) {
        auto where = store::redacted(url);
        err << "parley stats: store: " << where << " has migrations up to " << version
            << "; the figures need migration 007 (deal scores): `parley db migrate "
            << "--store " << where << "` adds it\n";
        return 1;
      }
      auto stats = db->stats(10);
      if (json_)
        out << nlohmann::json(stats).dump() << "\n";
      else
        print_stats(stats, out);
      return 0;
    }
    auto name = db_->get_subcommands().front()->get_name();
    auto where = store::redacted(url);
    if (name == "migrate") {
      auto n = db->migrate();
      out << "parley db: applied " << n << " migration" << (n == 1 ? "" : "s") << " to "
          << where << "\n";
    } else if (name == "verify") {
      auto missing = db->verify();
      if (!missing.empty()) {
        err << "parley db verify: " << where << " lacks:\n";
        for (const auto& x : missing)
          err << "  " << x << "\n";
        return 1;
      }
      out << "parley db verify: " << where << " has the negotiation store's schema\n";
    } else if (name == "rollback") {
      auto v = db->rollback();
      if (v == 0)
        out << "parley db: no migration to roll back in " << where << "\n";
      else
        out << "parley db: rolled back migration " << v << " in " << where << "\n";
    } else if (name == "expire") {
      out << "parley db: expired " << db->expire() << " negotiations\n";
    } else {
      out << "parley db: archived " << db->archive(archive_days_)
          << " negotiations older than " << archive_days_ << " days\n";
    }
    return 0;
  } catch (const store::store_error& e) {
    err << "parley: store: " << e.what() << "\n";
    return 1;
  }
}

} // namespace parley::cli
