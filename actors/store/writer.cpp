#include "actors/store/writer.hpp"

#include <chrono>
#include <utility>

namespace parley::actors::store {

namespace {

std::string write_all(backend& db, const write_job& job) {
  try {
    db.write(job.negotiations, job.channels);
    // Committed, but perhaps into a file that no restart finds: then it
    // failed, and nobody waiting for it is answered as if it had not.
    return db.file_lost();
  } catch (const std::exception& e) {
    return e.what();
  }
}

} // namespace

writer::writer(std::shared_ptr<backend> db, done_callback on_done,
               std::shared_ptr<metrics::store_metrics> metrics, idle_callback on_idle)
    : db_(std::move(db)), on_done_(std::move(on_done)), on_idle_(std::move(on_idle)),
      metrics_(std::move(metrics)) {
  db_->defer_checkpoints();
  thread_ = std::thread([this] { run(); });
}

std::string writer::write(const write_job& job) {
  if (!metrics_)
    return write_all(*db_, job);
  auto begin = std::chrono::steady_clock::now();
  auto failure = write_all(*db_, job);
  auto took = std::chrono::steady_clock::now() - begin;
  metrics_->commit_us.observe(
      std::chrono::duration_cast<std::chrono::microseconds>(took).count());
  metrics_->batch_rows.observe(
      static_cast<std::int64_t>(job.negotiations.size() + job.channels.events.size()));
  (failure.empty() ? metrics_->commits : metrics_->failures).add();
  return failure;
}

writer::~writer() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void writer::submit(write_job job) {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    job_ = std::move(job);
    has_job_ = true;
  }
  cv_.notify_all();
}

void writer::retry() {
  {
    std::lock_guard<std::mutex> guard{mtx_};
    job_ = std::move(failed_);
    failed_ = write_job{};
    has_job_ = true;
  }
  cv_.notify_all();
}

std::string writer::finish(write_job job) {
  {
    std::unique_lock<std::mutex> lock{mtx_};
    cv_.wait(lock, [this] { return !has_job_ && !busy_; });
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable())
    thread_.join();
  if (!failed_.empty()) {
    if (auto failure = write(failed_); !failure.empty())
      return failure;
    failed_ = write_job{};
  }
  return job.empty() ? std::string{} : write(job);
}

void writer::wait_for_job(std::unique_lock<std::mutex>& lock) {
  auto ready = [this] {
    return has_job_ || stop_;
  };
  if (cv_.wait_for(lock, idle_release, ready))
    return;
  // Idle (a load is over): the page cache its last batches filled goes back
  // (16 MiB per connection, sqlite_backend.cpp); the next batch reads what
  // it touches from the OS's page cache.
  lock.unlock();
  db_->release_memory();
  if (on_idle_)
    on_idle_();
  lock.lock();
  cv_.wait(lock, ready);
}

void writer::run() {
  for (;;) {
    write_job ops;
    {
      std::unique_lock<std::mutex> lock{mtx_};
      wait_for_job(lock);
      if (!has_job_)
        return;
      ops = std::move(job_);
      job_ = write_job{};
      has_job_ = false;
      busy_ = true;
    }
    auto failure = write(ops);
    {
      std::lock_guard<std::mutex> guard{mtx_};
      busy_ = false;
      if (!failure.empty())
        failed_ = std::move(ops);
    }
    cv_.notify_all();
    on_done_(std::move(failure));
    // After the report: the batch's answers go out while the log is
    // checkpointed, and the next batch grows meanwhile.
    db_->checkpoint_if_due();
  }
}

} // namespace parley::actors::store
