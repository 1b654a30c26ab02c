#include "cli/cluster_membership.hpp"

#include <exception>
#include <ostream>
#include <utility>

#include "messages/error_code.hpp"

namespace parley::cli {

cluster_membership::cluster_membership(
    const actors::store::store_url& url, actors::store::member_join j,
    std::shared_ptr<actors::store::member_fence> fence,
    std::shared_ptr<service::cluster_view> view, std::ostream& err,
    lost_callback on_lost, taken_callback on_taken,
    std::shared_ptr<actors::metrics::cluster_metrics> metrics)
    : db_(actors::store::open_backend(url)), key_{j.cluster, j.node_id, 0},
      lease_(j.lease_ms), view_(std::move(view)), err_(err),
      on_lost_(std::move(on_lost)), on_taken_(std::move(on_taken)),
      metrics_(std::move(metrics)) {
  key_.incarnation = db_->join(j);
  fence->hold(key_.incarnation);
  first_ = take_over();
  if (metrics_)
    metrics_->joined = true;
  count(first_);
  show(db_->members(key_.cluster));
  thread_ = std::thread([this] { run(); });
}

cluster_membership::~cluster_membership() {
  stop();
}

void cluster_membership::stop() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

std::string cluster_membership::leave() {
  stop();
  if (lost_)
    return {};
  try {
    db_->leave(key_);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

void cluster_membership::show(const std::vector<actors::store::member_row>& rows) {
  view_->set(rows);
  if (!metrics_)
    return;
  std::int64_t live = 0;
  for (const auto& m : rows) {
    if (m.status == actors::store::member_status::dead)
      continue;
    ++live;
    if (m.key.incarnation == key_.incarnation) {
      metrics_->owned_negotiations.set(m.negotiations);
      metrics_->owned_channels.set(m.channels);
      metrics_->owned_rooms.set(m.rooms);
    }
  }
  metrics_->live_members.set(live);
}

void cluster_membership::count(const actors::store::take_over_report& x) {
  if (!metrics_)
    return;
  metrics_->takeovers.add(x.incarnations.size());
  metrics_->taken_negotiations.add(static_cast<std::uint64_t>(x.negotiations));
  metrics_->taken_channels.add(static_cast<std::uint64_t>(x.channels));
}

actors::store::take_over_report cluster_membership::take_over() {
  try {
    // The unowned open rows (a store a single node wrote) until the first
    // take-over that succeeded: the join's, or the next heartbeat's.
    auto taken = db_->take_over(key_, !took_unowned_, lease_.count() / 4);
    took_unowned_ = true;
    return taken;
  } catch (const std::exception& e) {
    err_ << ("parley serve: " + messages::to_code(messages::error_code::store_failed) +
             " take-over failed: " + e.what() + "\n")
         << std::flush;
    return {};
  }
}

void cluster_membership::run() {
  // A heartbeat every lease/4: three may fail before the lease lapses.
  const auto every = lease_ / 4;
  std::unique_lock<std::mutex> lock{mtx_};
  while (!cv_.wait_for(lock, every, [this] { return stop_; })) {
    lock.unlock();
    bool held = true;
    try {
      held = db_->heartbeat(key_, lease_.count());
      if (held) {
        if (auto taken = take_over(); !taken.empty()) {
          count(taken);
          on_taken_(taken);
        }
        show(db_->members(key_.cluster));
      }
    } catch (const std::exception& e) {
      // The next heartbeat tries again; the lease decides.
      err_ << ("parley serve: " +
               messages::to_code(messages::error_code::store_failed) +
               " heartbeat failed: " + e.what() + "\n")
           << std::flush;
    }
    lock.lock();
    if (!held) {
      lost_ = true;
      err_ << ("parley serve: " +
               messages::to_code(messages::error_code::store_failed) +
               " lost the lease of cluster " + key_.cluster + " as " + key_.node_id +
               ", incarnation " + std::to_string(key_.incarnation) +
               " (superseded, or it lapsed): stopping\n")
           << std::flush;
      on_lost_();
      return;
    }
  }
}

} // namespace parley::cli
