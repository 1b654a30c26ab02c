#include "actors/store/writer.hpp"

#include <utility>

namespace parley::actors::store {

namespace {

std::string write_all(backend& db, const write_job& job) {
  try {
    db.write(job.negotiations, job.channels);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

} // namespace

writer::writer(std::shared_ptr<backend> db, done_callback on_done)
    : db_(std::move(db)), on_done_(std::move(on_done)), thread_([this] { run(); }) {}

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
    if (auto failure = write_all(*db_, failed_); !failure.empty())
      return failure;
    failed_ = write_job{};
  }
  return job.empty() ? std::string{} : write_all(*db_, job);
}

void writer::run() {
  for (;;) {
    write_job ops;
    {
      std::unique_lock<std::mutex> lock{mtx_};
      cv_.wait(lock, [this] { return has_job_ || stop_; });
      if (!has_job_)
        return;
      ops = std::move(job_);
      job_ = write_job{};
      has_job_ = false;
      busy_ = true;
    }
    auto failure = write_all(*db_, ops);
    {
      std::lock_guard<std::mutex> guard{mtx_};
      busy_ = false;
      if (!failure.empty())
        failed_ = std::move(ops);
    }
    cv_.notify_all();
    on_done_(std::move(failure));
  }
}

} // namespace parley::actors::store
