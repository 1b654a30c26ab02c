#pragma once

#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "actors/store/membership.hpp"

namespace parley::service {

/// A member as `parley cluster status --json` and `GET /api/v1/cluster`
/// print it: the table's columns, times as ISO 8601 (docs/cluster.md,
/// "Membership").
nlohmann::json member_json(const actors::store::member_row& m);

/// The members of the cluster `parley serve --cluster` joined, as the
/// membership thread last read them (after its join and each heartbeat):
/// what `GET /api/v1/cluster` answers without a query on an I/O thread.
class cluster_view {
public:
  explicit cluster_view(std::string cluster) : cluster_(std::move(cluster)) {}

  /// Hears the members each time they are set (on the membership's thread:
  /// it must not block).
  using listener = std::function<void(const std::vector<actors::store::member_row>&)>;

  /// Replaces the members with `rows`, then tells the listener.
  void set(const std::vector<actors::store::member_row>& rows);

  /// Sets the listener (before the membership starts).
  void on_set(listener f);

  /// `{"cluster": NAME, "members": [...]}`.
  nlohmann::json body() const;

private:
  std::string cluster_;
  mutable std::mutex mtx_;
  nlohmann::json members_ = nlohmann::json::array();
  listener listener_;
};

} // namespace parley::service
