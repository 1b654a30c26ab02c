#include "actors/agent/money.hpp"

#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

namespace unit_actors_agent_money_test {

using parley::actors::agent::format_amount;

TEST_CASE("amounts are formatted with the currency's symbol", "[unit]") {
  CHECK(format_amount(108000, "GBP") == "£1,080.00");
  CHECK(format_amount(1250, "USD") == "$12.50");
  CHECK(format_amount(300, "EUR") == "€3.00");
  CHECK(format_amount(100000, "CHF") == "1,000.00 CHF");
}

TEST_CASE("amounts are grouped by thousands with two decimals", "[unit]") {
  CHECK(format_amount(0, "GBP") == "£0.00");
  CHECK(format_amount(5, "GBP") == "£0.05");
  CHECK(format_amount(99999, "GBP") == "£999.99");
  CHECK(format_amount(100000000, "USD") == "$1,000,000.00");
  CHECK(format_amount(123456789012, "JPY") == "1,234,567,890.12 JPY");
}

TEST_CASE("negative amounts carry a leading minus", "[unit]") {
  CHECK(format_amount(-1250, "GBP") == "-£12.50");
  CHECK(format_amount(-100000, "CHF") == "-1,000.00 CHF");
  CHECK(format_amount(std::numeric_limits<std::int64_t>::min(), "USD") ==
        "-$92,233,720,368,547,758.08");
}

} // namespace unit_actors_agent_money_test
