#include "cli/process_stats.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <unistd.h>

namespace parley::cli {

namespace {

std::int64_t peak_rss_kb() {
  std::ifstream status{"/proc/self/status"};
  for (std::string line; std::getline(status, line);)
    if (line.compare(0, 6, "VmHWM:") == 0)
      return std::stoll(line.substr(6));
  return -1;
}

double cpu_seconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

/// The machine's uptime minus the process's start time (field 22 of
/// /proc/self/stat, in clock ticks since boot).
double process_seconds() {
  std::ifstream stat{"/proc/self/stat"};
  std::string text;
  std::getline(stat, text);
  auto close = text.rfind(')');
  if (close == std::string::npos)
    return 0;
  std::istringstream fields{text.substr(close + 2)};
  std::string field;
  // Fields from the state (3rd) on: the start time is the 22nd.
  for (int i = 3; i < 22 && fields >> field; ++i) {
  }
  unsigned long long start_ticks = 0;
  if (!(fields >> start_ticks))
    return 0;
  double uptime = 0;
  std::ifstream{"/proc/uptime"} >> uptime;
  return uptime - static_cast<double>(start_ticks) /
                      static_cast<double>(sysconf(_SC_CLK_TCK));
}

} // namespace

process_stats read_process_stats() {
  return process_stats{peak_rss_kb(), cpu_seconds(), process_seconds()};
}

std::string fixed(double x, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, x);
  return buf;
}

} // namespace parley::cli
