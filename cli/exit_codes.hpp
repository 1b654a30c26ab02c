#pragma once

namespace parley::cli {

/// The exit codes of every command (README.md): 0 done, 1 failed
/// (or a run without an agreement), 2 a usage error.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_usage = 2;

} // namespace parley::cli
