// parley_event_transport_bench: how fast, and how late, a cluster node's
// events reach another node, by each of the two ways issue 37 names
// (docs/cluster.md, "The cluster's events"; the figures in
// docs/benchmarks/cluster.md):
//
//   caf     Parley's event exchange itself (cluster/event_exchange.hpp): the
//           sender's exchange sends to the receiver's move relay over CAF's
//           middleman on loopback (two actor systems in this process, one
//           TCP connection), in batches with one unacknowledged at a time.
//   notify  PostgreSQL NOTIFY on one connection, LISTEN on another: each
//           event one `SELECT pg_notify(...)`, `--per-tx` of them per
//           transaction (1: each its own commit, as events published after
//           their own commits would be).
//
// Usage: parley_event_transport_bench caf [N] [--rate=R] [--payload=BYTES]
//        parley_event_transport_bench notify URL [N] [--rate=R] [--payload=BYTES]
//                                     [--per-tx=K]
// N events (default 20000) of a JSON payload of about BYTES (default 600,
// about a negotiation.updated event with its round), sent as fast as they go
// (--rate=0, the default) or R per second. Prints one line: events/s from the
// first send to the last arrival, and the latency from each send to its
// arrival (p50, p99, max; one process, one clock). Exits 1 when an event is
// lost, duplicated or late beyond 60 s.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <pqxx/pqxx>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/io/middleman.hpp"
#include "caf/send.hpp"

#include "cluster/event_exchange.hpp"
#include "cluster/move_relay.hpp"
#include "messages/agent_messages.hpp"
#include "messages/channel_messages.hpp"
#include "messages/cluster_event.hpp"
#include "messages/commands.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/topic.hpp"
#include "messages/type_ids.hpp"

namespace {

using clk = std::chrono::steady_clock;

struct options {
  std::string mode;
  std::string url;
  std::size_t n = 20000;
  double rate = 0;
  std::size_t payload = 600;
  std::size_t per_tx = 1;
};

/// Send and arrival times of every event, and arrivals counted.
struct timings {
  explicit timings(std::size_t n) : sent(n), arrived(n), times(n, 0) {}

  void arrive(std::size_t i) {
    auto now = clk::now();
    std::lock_guard<std::mutex> guard{mtx};
    if (i >= times.size() || times[i]++ > 0) {
      ++wrong;
    } else {
      arrived[i] = now;
      last = now;
    }
    if (++count == times.size())
      done.notify_all();
  }

  bool wait(std::chrono::seconds limit) {
    std::unique_lock<std::mutex> lock{mtx};
    return done.wait_for(lock, limit, [this] { return count >= times.size(); });
  }

  std::vector<clk::time_point> sent;
  std::vector<clk::time_point> arrived;
  std::vector<int> times;
  std::size_t count = 0;
  std::size_t wrong = 0;
  clk::time_point last;
  std::mutex mtx;
  std::condition_variable done;
};

/// A payload of about `bytes` that starts with the event's number.
std::string payload_of(std::size_t i, std::size_t bytes) {
  std::string x = "{\"n\":" + std::to_string(i) + ",\"negotiation_id\":\"n-" +
                  std::to_string(i % 1000) + "\",\"fill\":\"";
  if (x.size() + 2 < bytes)
    x.append(bytes - x.size() - 2, 'x');
  return x + "\"}";
}

std::size_t number_of(const std::string& payload) {
  return std::strtoull(payload.c_str() + 5, nullptr, 10);
}

/// Calls `send(i)` for each event, at `rate` per second (0: at once).
template <class Send> void pace(const options& o, timings& t, Send send) {
  auto start = clk::now();
  for (std::size_t i = 0; i < o.n; ++i) {
    if (o.rate > 0)
      std::this_thread::sleep_until(
          start +
          std::chrono::nanoseconds(static_cast<std::int64_t>(i * 1e9 / o.rate)));
    t.sent[i] = clk::now();
    send(i);
  }
}

int report(const options& o, timings& t, bool finished) {
  std::vector<double> ms;
  for (std::size_t i = 0; i < o.n; ++i)
    if (t.times[i] == 1)
      ms.push_back(
          std::chrono::duration<double, std::milli>(t.arrived[i] - t.sent[i]).count());
  std::sort(ms.begin(), ms.end());
  auto at = [&ms](double q) {
    return ms.empty()
               ? 0.0
               : ms[std::min(ms.size() - 1, static_cast<std::size_t>(q * ms.size()))];
  };
  auto seconds = std::chrono::duration<double>(t.last - t.sent[0]).count();
  std::printf("%s n=%zu payload=%zu rate=%s%s: %.0f events/s, latency p50 %.2f ms, p99 "
              "%.2f ms, max %.2f ms; arrived %zu, lost %zu, wrong %zu\n",
              o.mode.c_str(), o.n, o.payload,
              o.rate > 0 ? std::to_string(static_cast<long>(o.rate)).c_str() : "max",
              o.mode == "notify" ? (" per_tx=" + std::to_string(o.per_tx)).c_str() : "",
              seconds > 0 ? static_cast<double>(ms.size()) / seconds : 0.0, at(0.5),
              at(0.99), ms.empty() ? 0.0 : ms.back(), ms.size(), o.n - ms.size(),
              t.wrong);
  return finished && t.wrong == 0 && ms.size() == o.n ? 0 : 1;
}

void configure(caf::actor_system_config& cfg) {
  parley::messages::register_types(cfg);
  cfg.load<caf::io::middleman>();
  cfg.set("scheduler.max-threads", 2);
}

int run_caf(const options& o) {
  timings t{o.n};
  caf::actor_system_config cfg_a;
  caf::actor_system_config cfg_b;
  configure(cfg_a);
  configure(cfg_b);
  caf::actor_system a{cfg_a};
  caf::actor_system b{cfg_b};
  namespace cl = parley::cluster;
  cl::event_exchange_options to;
  to.node_id = "receiver";
  to.stream = 2;
  to.show = [&t](const std::string&, const parley::messages::cluster_event& x) {
    t.arrive(number_of(x.payload));
  };
  auto receiver = cl::spawn_event_exchange(b, to);
  auto relay = cl::spawn_move_relay(b, {}, {}, receiver);
  auto port = b.middleman().publish(relay, 0, "127.0.0.1");
  if (!port) {
    std::fprintf(stderr, "cannot publish: %s\n", b.render(port.error()).c_str());
    return 2;
  }
  cl::event_exchange_options from;
  from.node_id = "sender";
  from.stream = 1;
  from.connector = caf::actor_cast<caf::actor>(a.middleman().actor_handle());
  // Everything is kept: the figure is what the link carries, not what a
  // full queue drops.
  from.queue_limit = o.n;
  auto metrics = std::make_shared<parley::actors::metrics::cluster_metrics>();
  from.metrics = metrics;
  auto sender = cl::spawn_event_exchange(a, from);
  caf::anon_send(sender, parley::messages::peers_atom::value,
                 std::vector<std::string>{"127.0.0.1:" + std::to_string(*port)});
  // The figures start once the connection is up.
  auto deadline = clk::now() + std::chrono::seconds(10);
  while (metrics->event_peers.value() == 0 && clk::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  auto event_of = [&o](std::size_t i) {
    parley::messages::cluster_event x;
    x.topic = static_cast<std::uint8_t>(parley::messages::topic::negotiation_updated);
    x.negotiation_id = "n-" + std::to_string(i % 1000);
    x.payload = payload_of(i, o.payload);
    return x;
  };
  pace(o, t, [&](std::size_t i) { caf::anon_send(sender, event_of(i)); });
  auto finished = t.wait(std::chrono::seconds(60));
  for (const auto& x :
       {caf::actor_cast<caf::actor>(sender), caf::actor_cast<caf::actor>(receiver),
        caf::actor_cast<caf::actor>(relay)})
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  return report(o, t, finished);
}

/// Counts each notification of the channel.
class listener : public pqxx::notification_receiver {
public:
  listener(pqxx::connection_base& c, timings& t)
      : pqxx::notification_receiver(c, "parley_events"), t_(t) {}
  void operator()(const std::string& payload, int) override {
    t_.arrive(number_of(payload));
  }

private:
  timings& t_;
};

int run_notify(const options& o) {
  timings t{o.n};
  pqxx::connection listen_conn{o.url};
  listener l{listen_conn, t};
  // LISTEN is issued by the receiver's constructor: it is on before any send.
  std::atomic<bool> stop{false};
  std::thread receive([&] {
    while (!stop && t.count < o.n)
      listen_conn.await_notification(0, 200000);
  });
  pqxx::connection send_conn{o.url};
  std::size_t in_tx = 0;
  std::unique_ptr<pqxx::work> tx;
  pace(o, t, [&](std::size_t i) {
    if (!tx)
      tx = std::make_unique<pqxx::work>(send_conn);
    tx->exec_params("SELECT pg_notify('parley_events', $1)", payload_of(i, o.payload));
    if (++in_tx == o.per_tx || i + 1 == o.n) {
      tx->commit();
      tx.reset();
      in_tx = 0;
    }
  });
  auto finished = t.wait(std::chrono::seconds(60));
  stop = true;
  receive.join();
  return report(o, t, finished);
}

} // namespace

int main(int argc, char** argv) {
  options o;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--rate=", 0) == 0)
      o.rate = std::atof(a.c_str() + 7);
    else if (a.rfind("--payload=", 0) == 0)
      o.payload = std::strtoull(a.c_str() + 10, nullptr, 10);
    else if (a.rfind("--per-tx=", 0) == 0)
      o.per_tx = std::max<std::size_t>(1, std::strtoull(a.c_str() + 9, nullptr, 10));
    else
      positional.push_back(a);
  }
  if (positional.empty() || (positional[0] != "caf" && positional[0] != "notify") ||
      (positional[0] == "notify" && positional.size() < 2)) {
    std::fprintf(stderr,
                 "usage: %s caf [N] [--rate=R] [--payload=BYTES]\n"
                 "       %s notify URL [N] [--rate=R] [--payload=BYTES] "
                 "[--per-tx=K]\n",
                 argv[0], argv[0]);
    return 2;
  }
  o.mode = positional[0];
  std::size_t next = 1;
  if (o.mode == "notify")
    o.url = positional[next++];
  if (positional.size() > next)
    o.n =
        std::max<std::size_t>(1, std::strtoull(positional[next].c_str(), nullptr, 10));
  try {
    return o.mode == "caf" ? run_caf(o) : run_notify(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 2;
  }
}
