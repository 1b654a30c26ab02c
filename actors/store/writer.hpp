#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/metrics/node_metrics.hpp"
#include "actors/store/backend.hpp"

namespace parley::actors::store {

/// What one transaction writes: negotiations and channels.
struct write_job {
  std::vector<write_op> negotiations;
  channel_ops channels;

  bool empty() const noexcept { return negotiations.empty() && channels.empty(); }
};

/// The store's database writer: a thread of its own that writes one batch at
/// a time, each in one transaction, and reports how it went. The store actor
/// hands it the next batch only once the last one is done, so while one
/// transaction runs the next batch grows (group commit), and folding events
/// and writing rows run side by side. A batch whose transaction failed (the
/// database went away) is kept, to be written again with `retry` before any
/// later batch: a later batch may update rows that only it inserts. A batch
/// committed into a store file that was deleted or replaced meanwhile
/// (`backend::file_lost`, looked up after each commit) failed too. The log's
/// upkeep (SQLite's checkpoint, `backend::checkpoint_if_due`) runs after a
/// batch is reported, so the batch's answers do not wait for its fsyncs.
class writer {
public:
  /// Called on the writer's thread after each batch: empty, or why the
  /// transaction failed.
  using done_callback = std::function<void(std::string failure)>;

  /// Called on the writer's thread once it gave back its connection's
  /// cache after idle_release without a batch.
  using idle_callback = std::function<void()>;

  /// With `metrics`, each transaction's time, its rows and whether it
  /// failed are recorded there (on the writer's thread, lock-free).
  writer(std::shared_ptr<backend> db, done_callback on_done,
         std::shared_ptr<metrics::store_metrics> metrics = nullptr,
         idle_callback on_idle = nullptr);

  /// Finishes the batch in hand and stops the thread.
  ~writer();

  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;

  /// Starts writing `job`; the writer must be idle (its last batch
  /// reported) and hold no failed batch.
  void submit(write_job job);

  /// Starts writing the batch whose transaction failed (its last report)
  /// again; the writer must be idle.
  void retry();

  /// Waits for the batch in hand, then writes the failed batch, if any, and
  /// `job` on the calling thread and stops: the last commit at shutdown.
  /// Returns the failure, if any.
  std::string finish(write_job job);

  /// How long the writer waits for a batch before it gives back the
  /// memory its connection caches (backend::release_memory).
  static constexpr std::chrono::milliseconds idle_release{1000};

private:
  void run();

  /// Waits (with `lock` held) for a batch or the stop; once idle for
  /// idle_release, gives back the connection's cache first and calls
  /// `on_idle`.
  void wait_for_job(std::unique_lock<std::mutex>& lock);

  /// Writes `job` in one transaction, recorded in `metrics_`; returns the
  /// failure, if any.
  std::string write(const write_job& job);

  std::shared_ptr<backend> db_;
  done_callback on_done_;
  idle_callback on_idle_;
  std::shared_ptr<metrics::store_metrics> metrics_;
  std::mutex mtx_;
  std::condition_variable cv_;
  write_job job_;
  write_job failed_;
  bool has_job_ = false;
  bool busy_ = false;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace parley::actors::store
