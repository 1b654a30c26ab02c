// Many concurrent clients of one `parley serve` event stream (docs/api.md):
// each counts the events it receives and how long each took from the
// event's timestamp to its arrival. One thread, epoll; not a test.
//
//   parley_sse_bench --port P [--clients 1000] [--path /api/v1/events/stream]
//                    [--events N] [--seconds 60] [--idle-ms 3000]
//
// Ends when every client has `--events` events, when none came for
// `--idle-ms` after the first, or after `--seconds`; prints one JSON line:
// clients, connected, closed early, events per client (min, max), clients
// that missed events (fewer than the most any client got), and the delivery
// latency's p50, p99 and max in ms over the first 100 clients (the
// timestamp has ms precision).

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

using clock_type = std::chrono::steady_clock;

struct options {
  int port = 0;
  int clients = 1000;
  std::string path = "/api/v1/events/stream";
  long events = 0;
  int seconds = 60;
  int idle_ms = 3000;
};

struct client {
  int fd = -1;
  std::string pending;
  bool head_done = false;
  bool closed = false;
  long events = 0;
  /// Whether its latencies are recorded (the first 100 clients: 1,000
  /// clients of a W1 run would record ~10^8).
  bool sampled = false;
};

std::int64_t now_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// "2026-01-22T10:05:00.123Z" as Unix milliseconds; -1 when it is not one.
std::int64_t parse_iso_ms(const char* s, std::size_t n) {
  if (n < 24)
    return -1;
  std::tm t{};
  int ms = 0;
  if (std::sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3d", &t.tm_year, &t.tm_mon, &t.tm_mday,
                  &t.tm_hour, &t.tm_min, &t.tm_sec, &ms) != 7)
    return -1;
  t.tm_year -= 1900;
  t.tm_mon -= 1;
  return static_cast<std::int64_t>(timegm(&t)) * 1000 + ms;
}

/// Takes the complete frames of `c`: counts events, records latencies.
void take_frames(client& c, std::vector<std::int64_t>& latencies) {
  static const std::string key = "\"timestamp\":\"";
  std::size_t begin = 0;
  for (;;) {
    auto end = c.pending.find("\n\n", begin);
    if (end == std::string::npos)
      break;
    auto data = c.pending.find("\ndata: ", begin);
    if (c.pending.compare(begin, 6, "data: ") == 0)
      data = begin - 1;
    if (data != std::string::npos && data < end) {
      ++c.events;
      auto at = c.pending.find(key, data);
      if (c.sampled && at != std::string::npos && at < end) {
        auto ts = parse_iso_ms(c.pending.data() + at + key.size(), end - at);
        if (ts >= 0)
          latencies.push_back(now_unix_ms() - ts);
      }
    }
    begin = end + 2;
  }
  c.pending.erase(0, begin);
}

bool read_options(int argc, char** argv, options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    std::string v = argv[i + 1];
    if (k == "--port")
      o.port = std::atoi(v.c_str());
    else if (k == "--clients")
      o.clients = std::atoi(v.c_str());
    else if (k == "--path")
      o.path = v;
    else if (k == "--events")
      o.events = std::atol(v.c_str());
    else if (k == "--seconds")
      o.seconds = std::atoi(v.c_str());
    else if (k == "--idle-ms")
      o.idle_ms = std::atoi(v.c_str());
    else
      return false;
  }
  return o.port > 0 && o.clients > 0 && argc % 2 == 1;
}

std::int64_t percentile(std::vector<std::int64_t>& xs, double p) {
  if (xs.empty())
    return 0;
  auto i = static_cast<std::size_t>(p * static_cast<double>(xs.size() - 1));
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(i), xs.end());
  return xs[i];
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!read_options(argc, argv, o)) {
    std::fprintf(stderr, "usage: parley_sse_bench --port P [--clients N] [--path P] "
                         "[--events N] [--seconds S] [--idle-ms MS]\n");
    return 2;
  }
  int ep = epoll_create1(0);
  std::vector<client> clients(static_cast<std::size_t>(o.clients));
  int connected = 0;
  const std::string request = "GET " + o.path +
                              " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: "
                              "text/event-stream\r\n\r\n";
  for (std::size_t i = 0; i < clients.size(); ++i) {
    auto& c = clients[i];
    c.sampled = i < 100;
    c.fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(o.port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        send(c.fd, request.data(), request.size(), MSG_NOSIGNAL) < 0) {
      close(c.fd);
      c.fd = -1;
      c.closed = true;
      continue;
    }
    ++connected;
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = i;
    epoll_ctl(ep, EPOLL_CTL_ADD, c.fd, &ev);
  }
  std::fprintf(stderr, "%d of %d clients connected\n", connected, o.clients);
  std::vector<std::int64_t> latencies;
  std::vector<epoll_event> ready(256);
  std::vector<char> buf(1 << 16);
  auto start = clock_type::now();
  auto last_event = clock_type::time_point{};
  long total = 0;
  for (;;) {
    auto now = clock_type::now();
    if (now - start > std::chrono::seconds(o.seconds))
      break;
    if (last_event != clock_type::time_point{} &&
        now - last_event > std::chrono::milliseconds(o.idle_ms))
      break;
    if (o.events > 0 && total >= o.events * connected)
      break;
    int n = epoll_wait(ep, ready.data(), static_cast<int>(ready.size()), 100);
    for (int k = 0; k < n; ++k) {
      auto& c = clients[ready[static_cast<std::size_t>(k)].data.u64];
      auto got = recv(c.fd, buf.data(), buf.size(), 0);
      if (got <= 0) {
        epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
        close(c.fd);
        c.fd = -1;
        c.closed = true;
        continue;
      }
      c.pending.append(buf.data(), static_cast<std::size_t>(got));
      if (!c.head_done) {
        auto end = c.pending.find("\r\n\r\n");
        if (end == std::string::npos)
          continue;
        c.pending.erase(0, end + 4);
        c.head_done = true;
      }
      auto before = c.events;
      take_frames(c, latencies);
      if (c.events != before) {
        total += c.events - before;
        last_event = clock_type::now();
      }
    }
  }
  long lo = -1;
  long hi = 0;
  int closed = 0;
  for (const auto& c : clients) {
    if (c.closed)
      ++closed;
    lo = lo < 0 ? c.events : std::min(lo, c.events);
    hi = std::max(hi, c.events);
  }
  int missing = 0;
  for (const auto& c : clients)
    missing += c.events < hi ? 1 : 0;
  auto elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
  auto p50 = percentile(latencies, 0.5);
  auto p99 = percentile(latencies, 0.99);
  auto worst =
      latencies.empty() ? 0 : *std::max_element(latencies.begin(), latencies.end());
  std::printf("{\"clients\":%d,\"connected\":%d,\"closed_early\":%d,\"events_min\":%ld,"
              "\"events_max\":%ld,\"clients_missing_events\":%d,\"events_total\":%ld,"
              "\"seconds\":%.3f,\"latency_ms_p50\":%lld,\"latency_ms_p99\":%lld,"
              "\"latency_ms_max\":%lld}\n",
              o.clients, connected, closed, lo, hi, missing, total, elapsed,
              static_cast<long long>(p50), static_cast<long long>(p99),
              static_cast<long long>(worst));
  for (auto& c : clients)
    if (c.fd >= 0)
      close(c.fd);
  close(ep);
  return missing == 0 && closed == 0 ? 0 : 1;
}
