#include "runtime/stop_signals.hpp"

#include <pthread.h>

namespace parley::runtime {

sigset_t block_stop_signals() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  return stop_signals;
}

int next_stop_signal(const sigset_t& signals, std::chrono::milliseconds limit) {
  timespec wait{static_cast<time_t>(limit.count() / 1000),
                static_cast<long>(limit.count() % 1000) * 1'000'000};
  auto signal = sigtimedwait(&signals, nullptr, &wait);
  return signal > 0 ? signal : 0; // -1: the time is up, or another signal interrupted
}

} // namespace parley::runtime
