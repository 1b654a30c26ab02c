#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "actors/metrics/node_metrics.hpp"
#include "actors/store/backend.hpp"
#include "service/cluster_view.hpp"

namespace parley::cli {

/// `parley serve --cluster`'s membership (docs/cluster.md, "Membership"):
/// joins on construction (and then holds `fence` at its incarnation, so that
/// the store writes as it), renews the lease every lease/4 on a thread of its
/// own (the store's calls block, so never on a scheduler thread), takes over
/// the dead members after the join and after each heartbeat ("Ownership and
/// take-over"), and leaves in `leave`. Its own connection to the store: a
/// heartbeat never waits behind a batch of moves, and the connection's
/// session is the one whose end tells the others that this node died.
class cluster_membership {
public:
  /// Called once, from the heartbeat thread, when a heartbeat is refused.
  using lost_callback = std::function<void()>;

  /// Called from the heartbeat thread after a take-over that claimed
  /// something: the node must resume what it now owns.
  using taken_callback = std::function<void(const actors::store::take_over_report&)>;

  /// Opens `url`, joins as `j` (lease `j.lease_ms`), holds `fence` at the
  /// new incarnation and takes over the dead members (see `first_take_over`);
  /// the members it reads go to `view`. Throws store_error or query_error
  /// when it cannot.
  cluster_membership(
      const actors::store::store_url& url, actors::store::member_join j,
      std::shared_ptr<actors::store::member_fence> fence,
      std::shared_ptr<service::cluster_view> view, std::ostream& err,
      lost_callback on_lost, taken_callback on_taken,
      std::shared_ptr<actors::metrics::cluster_metrics> metrics = nullptr);

  /// Stops the heartbeats without leaving: the lease lapses by itself.
  ~cluster_membership();

  cluster_membership(const cluster_membership&) = delete;
  cluster_membership& operator=(const cluster_membership&) = delete;

  std::int64_t incarnation() const noexcept { return key_.incarnation; }

  /// What the take-over right after the join claimed: serve's recovery
  /// resumes it with the rest of what the node owns.
  const actors::store::take_over_report& first_take_over() const noexcept {
    return first_;
  }

  /// Stops the heartbeats, then marks this incarnation dead (unless its lease
  /// was lost already). Returns why it could not (empty: it left).
  std::string leave();

private:
  void run();
  void stop();

  /// Takes over the dead members (and, until one succeeded, the open rows
  /// nobody owns); a failure is logged, and the next heartbeat tries again
  /// (also the join's: a node starts though its first take-over failed).
  actors::store::take_over_report take_over();

  /// Shows `rows` (the cluster's members) in the view and the metrics.
  void show(const std::vector<actors::store::member_row>& rows);

  /// Counts what `x` took over in the metrics.
  void count(const actors::store::take_over_report& x);

  std::unique_ptr<actors::store::backend> db_;
  actors::store::member_key key_;
  std::chrono::milliseconds lease_;
  std::shared_ptr<service::cluster_view> view_;
  std::ostream& err_;
  lost_callback on_lost_;
  taken_callback on_taken_;
  std::shared_ptr<actors::metrics::cluster_metrics> metrics_;
  actors::store::take_over_report first_;
  bool took_unowned_ = false;
  std::mutex mtx_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool lost_ = false;
  std::thread thread_;
};

} // namespace parley::cli
