#include "cli/fd_limit.hpp"

#include <algorithm>

#include <dirent.h>
#include <sys/resource.h>

namespace parley::cli {

namespace {

/// The entries of /proc/self/fd but the directory's own descriptor; 0 when
/// it cannot be read.
std::uint64_t count_open_fds() {
  auto* dir = opendir("/proc/self/fd");
  if (dir == nullptr)
    return 0;
  std::uint64_t n = 0;
  while (auto* entry = readdir(dir))
    if (entry->d_name[0] != '.')
      ++n;
  closedir(dir);
  return n > 0 ? n - 1 : 0;
}

} // namespace

fd_budget raise_fd_limit() {
  rlimit x{};
  getrlimit(RLIMIT_NOFILE, &x);
  if (x.rlim_cur < x.rlim_max) {
    rlimit raised = x;
    raised.rlim_cur = x.rlim_max;
    // Refused for an unlimited hard limit (the kernel's fs.nr_open caps
    // it): the soft limit stays as it was.
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
      x = raised;
  }
  return {static_cast<std::uint64_t>(x.rlim_cur), count_open_fds()};
}

std::size_t connection_cap(std::int64_t configured, const fd_budget& budget) {
  auto held = budget.open + fd_reserve;
  auto left = budget.limit > held ? budget.limit - held : 0;
  auto wanted = static_cast<std::uint64_t>(std::max<std::int64_t>(configured, 1));
  return static_cast<std::size_t>(std::max<std::uint64_t>(std::min(wanted, left), 1));
}

} // namespace parley::cli
