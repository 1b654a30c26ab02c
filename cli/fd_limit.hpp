#pragma once

#include <cstddef>
#include <cstdint>

namespace parley::cli {

/// The file descriptors of the process when serve starts.
struct fd_budget {
  /// The soft RLIMIT_NOFILE: how many may be open at once.
  std::uint64_t limit = 0;
  /// How many are open now.
  std::uint64_t open = 0;
};

/// Descriptors kept, beside those open when serve starts, for what opens
/// later besides the HTTP connections: the store's further files and
/// connections (SQLite's temporary files, a PostgreSQL reconnection), the
/// audit log, the server's spare descriptor and health slot, `/proc` reads
/// for `/metrics`, and LLM calls (a socket and libcurl's resolver pair each,
/// some 20 at once; past them a call fails with E003, no connection waits).
inline constexpr std::uint64_t fd_reserve = 64;

/// Raises the soft RLIMIT_NOFILE to the hard limit (any process may) and
/// counts the descriptors open now (in /proc/self/fd).
fd_budget raise_fd_limit();

/// The connections serve takes at once: `configured`, but never more than
/// `budget.limit` leaves after the descriptors open and `fd_reserve`; at
/// least 1 (the health slot comes on top).
std::size_t connection_cap(std::int64_t configured, const fd_budget& budget);

} // namespace parley::cli
