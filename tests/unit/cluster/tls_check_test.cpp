#include <catch2/catch.hpp>

#include "cluster/tls_check.hpp"

namespace unit_cluster_tls_check_test {

using parley::cluster::is_loopback;

TEST_CASE("only loopback addresses count as loopback", "[unit]") {
  for (auto host : {"127.0.0.1", "127.200.0.9", "::1", "localhost"}) {
    INFO(host);
    CHECK(is_loopback(host));
  }
  for (auto host : {"0.0.0.0", "10.0.0.5", "::", "::ffff:127.0.0.1", "", "example.com",
                    "127.0.0.1.example.com", "128.0.0.1"}) {
    INFO(host);
    CHECK_FALSE(is_loopback(host));
  }
}

} // namespace unit_cluster_tls_check_test
