#pragma once

#include <csignal>

namespace parley::runtime {

/// Blocks SIGTERM and SIGINT in the calling thread, and so in every thread it
/// starts from then on (CAF's workers, the HTTP server's I/O threads), and
/// returns the set: only the caller's sigwait / sigtimedwait on it sees them.
/// Call it before starting any thread.
sigset_t block_stop_signals();

} // namespace parley::runtime
