#pragma once

namespace parley::cli {

/// The `parley` command line: parses `argv`, runs the command, and returns
/// the process exit code (0 success, 1 a failed run, 2 bad usage, bad
/// configuration or a bad scenario file).
int run_cli(int argc, char** argv);

} // namespace parley::cli
