#pragma once

#include <chrono>
#include <csignal>

namespace parley::runtime {

/// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread it
/// starts from then on (CAF's workers, the HTTP server's I/O threads), and
/// returns the set: only the caller's sigwait / sigtimedwait on it sees them.
/// Call it before starting any thread.
sigset_t block_stop_signals();

/// Waits up to `limit` for one of `signals` (blocked by block_stop_signals);
/// returns it, or 0 when none came.
int next_stop_signal(const sigset_t& signals, std::chrono::milliseconds limit);

} // namespace parley::runtime
