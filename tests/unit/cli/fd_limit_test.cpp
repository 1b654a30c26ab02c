#include "cli/fd_limit.hpp"

#include <catch2/catch.hpp>

#include <sys/resource.h>

namespace unit_cli_fd_limit_test {

using parley::cli::connection_cap;
using parley::cli::fd_budget;
using parley::cli::fd_reserve;

TEST_CASE("the connection cap is the setting, within what the fd limit leaves",
          "[unit]") {
  CHECK(connection_cap(10000, fd_budget{1048576, 20}) == 10000);
  CHECK(connection_cap(10000, fd_budget{1024, 20}) == 1024 - 20 - fd_reserve);
  CHECK(connection_cap(10, fd_budget{1024, 20}) == 10);
  // A limit that leaves nothing still takes one connection.
  CHECK(connection_cap(10000, fd_budget{64, 20}) == 1);
  CHECK(connection_cap(10000, fd_budget{0, 0}) == 1);
}

TEST_CASE("serve's soft fd limit is raised to the hard one", "[unit]") {
  auto budget = parley::cli::raise_fd_limit();
  rlimit x{};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &x) == 0);
  CHECK(budget.limit == x.rlim_cur);
  // An unlimited hard limit cannot be the soft one (the kernel's fs.nr_open
  // caps it): the soft limit stays.
  if (x.rlim_max != RLIM_INFINITY)
    CHECK(x.rlim_cur == x.rlim_max);
  // stdin, stdout, stderr at least.
  CHECK(budget.open >= 3);
}

} // namespace unit_cli_fd_limit_test
