#include "cluster/connection_guard.hpp"

#include <algorithm>
#include <utility>

#include <sys/socket.h>

namespace parley::cluster {

std::string to_string(const connection_counts& x) {
  return "connections open=" + std::to_string(x.open) +
         " accepted=" + std::to_string(x.accepted) +
         " closed=" + std::to_string(x.closed) +
         " (refused_at_cap=" + std::to_string(x.refused_at_cap) +
         " failed_handshake=" + std::to_string(x.failed_handshake) +
         " handshake_timeouts=" + std::to_string(x.handshake_timeouts) +
         " idle_timeouts=" + std::to_string(x.idle_timeouts) + ")";
}

connection_guard::connection::connection(std::shared_ptr<connection_guard> guard,
                                         int fd, clock::time_point now)
    : guard_(std::move(guard)), fd_(fd), accepted_at_(now),
      last_received_(now.time_since_epoch().count()) {}

connection_guard::connection::~connection() {
  guard_->closed(this);
}

void connection_guard::connection::received(clock::time_point now) noexcept {
  last_received_.store(now.time_since_epoch().count(), std::memory_order_relaxed);
  established_.store(true, std::memory_order_release);
}

connection_guard::connection_guard(limits x) : limits_(x) {}

std::unique_ptr<connection_guard::connection>
connection_guard::admit(const std::shared_ptr<connection_guard>& self, int fd,
                        clock::time_point now) {
  std::lock_guard<std::mutex> lock{self->mutex_};
  auto& counts = self->counts_;
  ++counts.accepted;
  if (counts.open >= self->limits_.max_connections) {
    ++counts.refused_at_cap;
    ++counts.closed;
    return nullptr;
  }
  ++counts.open;
  auto result = std::make_unique<connection>(self, fd, now);
  self->open_.push_back(result.get());
  return result;
}

void connection_guard::closed(connection* x) {
  std::lock_guard<std::mutex> lock{mutex_};
  open_.erase(std::find(open_.begin(), open_.end(), x));
  --counts_.open;
  ++counts_.closed;
  if (!x->timed_out_ && !x->established_.load(std::memory_order_acquire))
    ++counts_.failed_handshake;
}

void connection_guard::sweep(clock::time_point now) {
  std::lock_guard<std::mutex> lock{mutex_};
  for (auto* x : open_) {
    if (x->timed_out_)
      continue;
    bool expired = false;
    if (!x->established_.load(std::memory_order_acquire)) {
      expired = now - x->accepted_at_ >= limits_.handshake_timeout;
      counts_.handshake_timeouts += expired ? 1 : 0;
    } else {
      clock::time_point last{
          clock::duration{x->last_received_.load(std::memory_order_relaxed)}};
      expired = now - last >= limits_.idle_timeout;
      counts_.idle_timeouts += expired ? 1 : 0;
    }
    if (expired) {
      x->timed_out_ = true;
      // The descriptor stays open (its owner closes it on the end-of-file
      // this causes), so it cannot have been reused by now: closed() takes
      // the connection out of open_ under this mutex before it is closed.
      ::shutdown(x->fd_, SHUT_RDWR);
    }
  }
}

connection_counts connection_guard::counts() const {
  std::lock_guard<std::mutex> lock{mutex_};
  return counts_;
}

} // namespace parley::cluster
