#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <memory>

#include <sys/socket.h>
#include <unistd.h>

#include "cluster/connection_guard.hpp"

namespace unit_cluster_connection_guard_test {

using namespace std::chrono_literals;
using parley::cluster::connection_counts;
using parley::cluster::connection_guard;

namespace {

/// A connected pair of sockets: the guard watches `ours`, the test plays
/// the peer on `theirs`.
struct socket_pair {
  std::array<int, 2> fds{-1, -1};

  socket_pair() { REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds.data()) == 0); }
  ~socket_pair() {
    ::close(fds[0]);
    ::close(fds[1]);
  }

  int ours() const { return fds[0]; }

  /// Whether the peer sees end-of-file: the guard shut `ours` down.
  bool shut_down() const {
    char byte = 0;
    return ::recv(fds[1], &byte, 1, MSG_DONTWAIT) == 0;
  }
};

std::shared_ptr<connection_guard> make_guard(std::int64_t cap) {
  return std::make_shared<connection_guard>(connection_guard::limits{cap, 5s, 60s});
}

const connection_guard::clock::time_point t0{};

} // namespace

TEST_CASE("the guard refuses connections beyond its cap and counts them", "[unit]") {
  auto guard = make_guard(2);
  socket_pair a, b, c;
  auto first = connection_guard::admit(guard, a.ours(), t0);
  auto second = connection_guard::admit(guard, b.ours(), t0);
  CHECK(first != nullptr);
  CHECK(second != nullptr);
  CHECK(connection_guard::admit(guard, c.ours(), t0) == nullptr);
  auto counts = guard->counts();
  CHECK(counts.open == 2);
  CHECK(counts.accepted == 3);
  CHECK(counts.refused_at_cap == 1);
  CHECK(counts.closed == 1);
  first.reset();
  CHECK(connection_guard::admit(guard, c.ours(), t0) != nullptr);
}

TEST_CASE("a connection without a handshake is shut down at the handshake timeout",
          "[unit]") {
  auto guard = make_guard(8);
  socket_pair silent, talking;
  auto x = connection_guard::admit(guard, silent.ours(), t0);
  auto y = connection_guard::admit(guard, talking.ours(), t0);
  y->received(t0 + 1s);
  guard->sweep(t0 + 4999ms);
  CHECK_FALSE(silent.shut_down());
  guard->sweep(t0 + 5s);
  CHECK(silent.shut_down());
  CHECK_FALSE(talking.shut_down());
  CHECK(guard->counts().handshake_timeouts == 1);
  // Counted once, however often the sweep passes before the socket closes.
  guard->sweep(t0 + 6s);
  CHECK(guard->counts().handshake_timeouts == 1);
  x.reset();
  auto counts = guard->counts();
  CHECK(counts.open == 1);
  CHECK(counts.closed == 1);
  CHECK(counts.failed_handshake == 0);
}

TEST_CASE("an established connection is shut down after the idle timeout", "[unit]") {
  auto guard = make_guard(8);
  socket_pair p;
  auto x = connection_guard::admit(guard, p.ours(), t0);
  x->received(t0 + 1s);
  x->received(t0 + 30s);
  guard->sweep(t0 + 89s);
  CHECK_FALSE(p.shut_down());
  guard->sweep(t0 + 90s);
  CHECK(p.shut_down());
  CHECK(guard->counts().idle_timeouts == 1);
  CHECK(guard->counts().handshake_timeouts == 0);
}

TEST_CASE("a connection closed before its handshake counts as a failed handshake",
          "[unit]") {
  auto guard = make_guard(8);
  socket_pair refused, served;
  auto x = connection_guard::admit(guard, refused.ours(), t0);
  auto y = connection_guard::admit(guard, served.ours(), t0);
  y->received(t0);
  x.reset();
  y.reset();
  connection_counts counts = guard->counts();
  CHECK(counts.failed_handshake == 1);
  CHECK(counts.closed == 2);
  CHECK(counts.open == 0);
  CHECK(to_string(counts) ==
        "connections open=0 accepted=2 closed=2 (refused_at_cap=0 failed_handshake=1 "
        "handshake_timeouts=0 idle_timeouts=0)");
}

} // namespace unit_cluster_connection_guard_test
