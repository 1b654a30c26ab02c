#include "cli/cluster_commands.hpp"

#include <iomanip>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "actors/store/backend.hpp"
#include "actors/store/presence.hpp"
#include "cli/chosen_store.hpp"
#include "cli/exit_codes.hpp"
#include "service/cluster_view.hpp"

namespace parley::cli {

namespace store = actors::store;

namespace {

/// The migration that completes cluster_members (docs/cluster.md,
/// "Membership"): 008 makes the table, 009 the owners it counts.
constexpr int members_migration = 9;

void print_members(const std::vector<store::member_row>& rows, std::ostream& out) {
  out << std::left << std::setw(16) << "CLUSTER" << std::setw(20) << "NODE"
      << std::setw(13) << "INCARNATION" << std::setw(9) << "STATUS" << std::setw(14)
      << "LEASE AGE" << std::setw(24) << "API" << std::setw(22) << "NODE ADDRESS"
      << std::setw(14) << "NEGOTIATIONS" << std::setw(7) << "ROOMS"
      << "CHANNELS\n";
  for (const auto& m : rows)
    out << std::setw(16) << m.key.cluster << std::setw(20) << m.key.node_id
        << std::setw(13) << m.key.incarnation << std::setw(9)
        << store::to_string(m.status) << std::setw(14)
        << (std::to_string(m.lease_age_ms) + " ms") << std::setw(24) << m.api_address
        << std::setw(22) << (m.node_address.empty() ? "-" : m.node_address)
        << std::setw(14) << m.negotiations << std::setw(7) << m.rooms << m.channels
        << "\n";
}

} // namespace

cluster_commands::cluster_commands(CLI::App& app) {
  cluster_ = app.add_subcommand("cluster", "The members of clusters of `parley serve` "
                                           "nodes over one store (docs/cluster.md)");
  cluster_->require_subcommand(1);
  auto* status = cluster_->add_subcommand(
      "status", "List every incarnation of every member: what it owns (open "
                "negotiations, rooms, channels), status (a lapsed lease reads "
                "as dead), incarnation and lease age, by the database's clock");
  status->add_option("--store", store_flag_,
                     "Store URL: postgresql://… (or a path or sqlite:PATH) (default: "
                     "PARLEY_STORE, else store.url, else ./parley.db)");
  status->add_option("--cluster", cluster_name_,
                     "Only this cluster (default: every one)");
  status->add_flag("--json", json_, "Print one JSON object");
}

bool cluster_commands::chosen() const {
  return cluster_->parsed();
}

int cluster_commands::run(const config::settings& settings, std::ostream& out,
                          std::ostream& err) const {
  store::store_url url;
  if (!chosen_store(store_flag_, settings, url, err))
    return exit_usage;
  try {
    // Reading never leaves an empty file where a store was expected.
    if (auto why = store::absent_file(url); !why.empty()) {
      err << "parley cluster: store: " << why << "\n";
      return exit_failed;
    }
    auto db = store::open_backend(url);
    if (db->applied_version() < members_migration) {
      auto where = store::redacted(url);
      err << "parley cluster: store: " << where << " lacks the cluster_members table "
          << "and its owners (migrations 008 and 009); `parley db migrate --store "
          << where << "` adds them\n";
      return exit_failed;
    }
    auto rows = db->members(cluster_name_);
    if (json_) {
      auto members = nlohmann::json::array();
      for (const auto& m : rows)
        members.push_back(service::member_json(m));
      out << nlohmann::json{{"members", members}}.dump() << "\n";
    } else if (rows.empty()) {
      out << "parley cluster: no members"
          << (cluster_name_.empty() ? "" : " in cluster " + cluster_name_) << " in "
          << store::redacted(url) << "\n";
    } else {
      print_members(rows, out);
    }
    return exit_ok;
  } catch (const store::store_error& e) {
    err << "parley cluster: store: " << e.what() << "\n";
    return exit_failed;
  }
}

} // namespace parley::cli
