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

#include "actors/store/backend.hpp"
#include "service/cluster_view.hpp"

namespace parley::cli {

/// `parley serve --cluster`'s membership (docs/cluster.md, "Membership"):
/// joins on construction, renews the lease every lease/4 on a thread of its
/// own (the store's calls block, so never on a scheduler thread), and leaves
/// in `leave`. Its own connection to the store: a heartbeat never waits
/// behind a batch of moves.
class cluster_membership {
public:
  /// Called once, from the heartbeat thread, when a heartbeat is refused.
  using lost_callback = std::function<void()>;

  /// Opens `url` and joins as `j` (lease `j.lease_ms`); the members it reads
  /// go to `view`. Throws store_error or query_error when it cannot.
  cluster_membership(const actors::store::store_url& url, actors::store::member_join j,
                     std::shared_ptr<service::cluster_view> view, std::ostream& err,
                     lost_callback on_lost);

  /// Stops the heartbeats without leaving: the lease lapses by itself.
  ~cluster_membership();

  cluster_membership(const cluster_membership&) = delete;
  cluster_membership& operator=(const cluster_membership&) = delete;

  std::int64_t incarnation() const noexcept { return key_.incarnation; }

  /// Stops the heartbeats, then marks this incarnation dead (unless its lease
  /// was lost already). Returns why it could not (empty: it left).
  std::string leave();

private:
  void run();
  void stop();

  std::unique_ptr<actors::store::backend> db_;
  actors::store::member_key key_;
  std::chrono::milliseconds lease_;
  std::shared_ptr<service::cluster_view> view_;
  std::ostream& err_;
  lost_callback on_lost_;
  std::mutex mtx_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool lost_ = false;
  std::thread thread_;
};

} // namespace parley::cli
