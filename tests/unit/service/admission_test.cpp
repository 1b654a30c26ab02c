#include "service/admission.hpp"

#include <catch2/catch.hpp>

namespace unit_service_admission_test {

using namespace std::chrono_literals;
using parley::service::accept_backoff;
using parley::service::admission;

TEST_CASE("past its ordinary places admission keeps one for health checks", "[unit]") {
  admission a{2};
  CHECK(a.may_accept());
  CHECK(a.admit() == admission::slot::ordinary);
  CHECK(a.admit() == admission::slot::ordinary);
  CHECK(a.open() == 2);
  CHECK(a.may_accept());
  CHECK(a.admit() == admission::slot::health);
  CHECK_FALSE(a.may_accept());
  a.release(admission::slot::health);
  CHECK(a.may_accept());
  CHECK(a.admit() == admission::slot::health);
  a.release(admission::slot::ordinary);
  CHECK(a.open() == 1);
  CHECK(a.may_accept());
  CHECK(a.admit() == admission::slot::ordinary);
}

TEST_CASE("the health slot can be taken below the cap", "[unit]") {
  admission a{10};
  CHECK(a.admit_health() == admission::slot::health);
  CHECK(a.health_busy());
  CHECK(a.open() == 0);
  CHECK(a.admit() == admission::slot::ordinary);
  a.release(admission::slot::health);
  CHECK_FALSE(a.health_busy());
}

TEST_CASE("accept backoff doubles from 50 ms to 1 s and starts over", "[unit]") {
  accept_backoff b;
  CHECK(b.next() == 50ms);
  CHECK(b.next() == 100ms);
  CHECK(b.next() == 200ms);
  CHECK(b.next() == 400ms);
  CHECK(b.next() == 800ms);
  CHECK(b.next() == 1000ms);
  CHECK(b.next() == 1000ms);
  b.reset();
  CHECK(b.next() == 50ms);
}

} // namespace unit_service_admission_test
