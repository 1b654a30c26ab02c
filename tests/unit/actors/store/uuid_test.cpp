#include "actors/store/uuid.hpp"

#include <string>

#include <catch2/catch.hpp>

namespace unit_actors_store_uuid_test {

using parley::actors::store::is_lower_uuid;
using parley::actors::store::is_uuid;

TEST_CASE("a UUID's text is 8-4-4-4-12 hex digits, in lower case for the store's ids",
          "[unit]") {
  const std::string lower = "0190f3a2-7c4e-7b1d-9a3f-5e6d7c8b9a01";
  const std::string upper = "0190F3A2-7C4E-7B1D-9A3F-5E6D7C8B9A01";
  const std::string mixed = "0190f3a2-7C4E-7b1d-9A3F-5e6d7c8b9a01";
  CHECK(is_uuid(lower));
  CHECK(is_uuid(upper));
  CHECK(is_uuid(mixed));
  CHECK(is_lower_uuid(lower));
  CHECK_FALSE(is_lower_uuid(upper));
  CHECK_FALSE(is_lower_uuid(mixed));
  // Each digit in turn made a non-digit, and each hyphen a digit.
  for (std::size_t i = 0; i < lower.size(); ++i) {
    auto bad = lower;
    bad[i] = bad[i] == '-' ? '0' : 'g';
    INFO(bad);
    CHECK_FALSE(is_uuid(bad));
    CHECK_FALSE(is_lower_uuid(bad));
  }
  for (const std::string& x : {std::string{}, lower.substr(1), lower + "0",
                               std::string{"0190f3a27-c4e-7b1d-9a3f-5e6d7c8b9a01"},
                               std::string(36, '-'), lower.substr(0, 35) + '\0'}) {
    INFO(x);
    CHECK_FALSE(is_uuid(x));
    CHECK_FALSE(is_lower_uuid(x));
  }
}

} // namespace unit_actors_store_uuid_test
