// parley_remote_floor: the least work that plays `parley bench --remote` (W1
// with the rooms on another process) with CAF 0.17 and its middleman: the
// rooms (each holding its negotiation) in a `node` process, the two agents of
// each room in the `bench` process, W1's seven messages between them (propose,
// proposal, counter, countered, counter, countered, accept) and the room's
// verified end back to the bench, all across one connection. As Parley's
// bridge does, one relay actor on each side collects what its actors send the
// other process and sends it as one frame (a string of fixed-size records) at
// most `--flush-us` after its first record, or at once at `--max-batch`
// records; the bench keeps `--window` negotiations under way. Atoms and
// integers for messages, one lazy timer per negotiation, no events, no ids, no
// strings. What CAF itself achieves for the workload on this machine
// (BENCHMARKS.md).
//
// Usage: parley_remote_floor node PORT [MIDDLEMAN]
//        parley_remote_floor bench HOST PORT N [--window=1024] [--flush-us=200]
//                            [--max-batch=2048] [MIDDLEMAN]
// MIDDLEMAN: [--mm-workers=K] [--mm-reads=K], CAF's middleman.workers and
// middleman.max-consecutive-reads (CAF's defaults when not given).

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/exit_reason.hpp"
#include "caf/io/middleman.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/spawn_options.hpp"
#include "caf/stateful_actor.hpp"

namespace {

using clk = std::chrono::steady_clock;

// Between the processes.
using build_atom = caf::atom_constant<caf::atom("build")>;
using frame_atom = caf::atom_constant<caf::atom("frame")>;
using done_atom = caf::atom_constant<caf::atom("done")>;
// Within a process: an actor's record for the other side, to its relay.
using out_atom = caf::atom_constant<caf::atom("out")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
// Relay -> room.
using propose_atom = caf::atom_constant<caf::atom("propose")>;
using counter_atom = caf::atom_constant<caf::atom("counter")>;
using accept_atom = caf::atom_constant<caf::atom("accept")>;
using timeout_atom = caf::atom_constant<caf::atom("timeout")>;
// Relay -> agent.
using open_atom = caf::atom_constant<caf::atom("open")>;
using proposal_atom = caf::atom_constant<caf::atom("proposal")>;
using countered_atom = caf::atom_constant<caf::atom("countered")>;

/// What a record asks of the actor it is for.
enum op : std::uint8_t {
  // to a room (slot: the room)
  op_propose,
  op_counter,
  op_accept,
  // to an agent (slot: its room; party: 0 initiator, 1 responder)
  op_proposal,
  op_countered,
  // to the bench (slot: the room; amount: 1 if its negotiation verified)
  op_ended,
};

/// One message in a frame.
struct record {
  std::uint32_t slot;
  std::uint8_t op;
  std::uint8_t party;
  std::uint16_t unused;
  std::uint32_t nid;
  std::uint32_t unused2;
  std::int64_t amount;
};

struct settings {
  std::uint64_t flush_us = 200;
  std::uint64_t max_batch = 2048;
};

/// A relay's frame under construction.
struct outbox {
  std::string bytes;
  std::uint64_t records = 0;

  template <class Self> void add(Self* self, const settings& cfg, const caf::actor& peer,
                                 const record& x) {
    bytes.append(reinterpret_cast<const char*>(&x), sizeof(x));
    if (++records >= cfg.max_batch)
      flush(self, peer);
    else if (records == 1)
      self->delayed_send(self, std::chrono::microseconds(cfg.flush_us),
                         flush_atom::value);
  }

  template <class Self> void flush(Self* self, const caf::actor& peer) {
    if (records == 0)
      return;
    self->send(peer, frame_atom::value, std::move(bytes));
    bytes = std::string{};
    records = 0;
  }
};

template <class F> void for_each_record(const std::string& bytes, F f) {
  for (std::size_t pos = 0; pos + sizeof(record) <= bytes.size(); pos += sizeof(record)) {
    record x;
    std::memcpy(&x, bytes.data() + pos, sizeof(x));
    f(x);
  }
}

record make_record(std::uint32_t slot, op o, std::uint8_t party, std::uint32_t nid,
                   std::int64_t amount) {
  return record{slot, o, party, 0, nid, 0, amount};
}

/// The process's CPU time so far (user and system), in seconds.
double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(ru.ru_utime) + seconds(ru.ru_stime);
}

/// Rooms and agents are not scheduled before their first message.
constexpr auto worker_flags = caf::lazy_init;

// -- node: the rooms ----------------------------------------------------------

/// W1's room: the negotiation's state, one timer (armed once, as a lazy
/// timer), the verification of its rounds at the end.
struct room_state {
  std::uint32_t slot = 0;
  caf::actor relay;
  std::uint32_t nid = 0;
  bool active = false;
  std::uint32_t rounds = 0;
  std::int64_t amounts[6] = {};
  std::uint8_t parties[6] = {};
  op ops[6] = {};
  std::int64_t current = 0;
};

void push_round(room_state& st, op o, std::uint8_t party, std::int64_t amount) {
  if (st.rounds < 6) {
    st.amounts[st.rounds] = amount;
    st.parties[st.rounds] = party;
    st.ops[st.rounds] = o;
    ++st.rounds;
  }
}

bool verified(const room_state& st) {
  std::int64_t p = 10000 + st.slot % 1000;
  std::int64_t c1 = p * 85 / 100;
  std::int64_t c2 = (p + c1) / 2;
  const std::int64_t amounts[4] = {p, c1, c2, c2};
  const op ops[4] = {op_propose, op_counter, op_counter, op_accept};
  const std::uint8_t parties[4] = {0, 1, 0, 1};
  bool good = st.rounds == 4 && st.current == c2;
  for (std::uint32_t k = 0; good && k < 4; ++k)
    good = st.amounts[k] == amounts[k] && st.ops[k] == ops[k] && st.parties[k] == parties[k];
  return good;
}

caf::behavior room(caf::stateful_actor<room_state>* self, std::uint32_t slot,
                   caf::actor relay) {
  self->state.slot = slot;
  self->state.relay = std::move(relay);
  auto send_out = [self](op o, std::uint8_t party, std::int64_t amount) {
    auto& st = self->state;
    self->send(st.relay, out_atom::value, st.slot,
               static_cast<std::uint32_t>(o) | (static_cast<std::uint32_t>(party) << 8),
               st.nid, amount);
  };
  auto check = [self](std::uint32_t nid) {
    return self->state.active && nid == self->state.nid;
  };
  return {
      [=](propose_atom, std::int64_t amount) {
        auto& st = self->state;
        if (st.active)
          return;
        ++st.nid;
        st.active = true;
        st.rounds = 0;
        push_round(st, op_propose, 0, amount);
        st.current = amount;
        self->delayed_send(self, std::chrono::seconds(30), timeout_atom::value, st.nid);
        send_out(op_proposal, 1, amount);
      },
      [=](counter_atom, std::uint8_t party, std::uint32_t nid, std::int64_t amount) {
        if (!check(nid))
          return;
        auto& st = self->state;
        push_round(st, op_counter, party, amount);
        st.current = amount;
        send_out(op_countered, party == 0 ? 1 : 0, amount);
      },
      [=](accept_atom, std::uint8_t party, std::uint32_t nid) {
        if (!check(nid))
          return;
        auto& st = self->state;
        push_round(st, op_accept, party, st.current);
        st.active = false;
        send_out(op_ended, 0, verified(st) ? 1 : 0);
      },
      [=](timeout_atom, std::uint32_t nid) {
        if (check(nid)) {
          self->state.active = false;
          send_out(op_ended, 0, 0);
        }
      },
  };
}

struct node_relay_state {
  settings cfg;
  caf::actor bench;
  std::vector<caf::actor> rooms;
  outbox out;
};

caf::behavior node_relay(caf::stateful_actor<node_relay_state>* self) {
  return {
      [=](build_atom, std::uint32_t n, std::uint64_t flush_us, std::uint64_t max_batch) {
        auto& st = self->state;
        st.cfg = settings{flush_us, max_batch};
        st.bench = caf::actor_cast<caf::actor>(self->current_sender());
        // The node ends when the bench has gone (after it had the node's CPU).
        self->monitor(st.bench);
        self->set_down_handler([self](const caf::down_msg&) { self->quit(); });
        st.rooms.reserve(n);
        auto me = caf::actor_cast<caf::actor>(self);
        for (std::uint32_t i = 0; i < n; ++i)
          st.rooms.push_back(self->system().spawn<worker_flags>(room, i, me));
        return n;
      },
      [=](frame_atom, const std::string& bytes) {
        auto& rooms = self->state.rooms;
        for_each_record(bytes, [&](const record& x) {
          if (x.slot >= rooms.size())
            return;
          const auto& dest = rooms[x.slot];
          if (x.op == op_propose)
            self->send(dest, propose_atom::value, x.amount);
          else if (x.op == op_counter)
            self->send(dest, counter_atom::value, x.party, x.nid, x.amount);
          else if (x.op == op_accept)
            self->send(dest, accept_atom::value, x.party, x.nid);
        });
      },
      [=](out_atom, std::uint32_t slot, std::uint32_t op_party, std::uint32_t nid,
          std::int64_t amount) {
        auto& st = self->state;
        st.out.add(self, st.cfg, st.bench,
                   make_record(slot, static_cast<op>(op_party & 0xff),
                               static_cast<std::uint8_t>(op_party >> 8), nid, amount));
      },
      [=](flush_atom) { self->state.out.flush(self, self->state.bench); },
      [=](done_atom) { return cpu_seconds(); },
  };
}

// -- bench: the agents, the start window, the clock ---------------------------

struct agent_state {
  std::uint32_t slot = 0;
  caf::actor relay;
  std::int64_t last = 0;
};

void send_out(caf::stateful_actor<agent_state>* self, op o, std::uint8_t party,
              std::uint32_t nid, std::int64_t amount) {
  self->send(self->state.relay, out_atom::value, self->state.slot,
             static_cast<std::uint32_t>(o) | (static_cast<std::uint32_t>(party) << 8), nid,
             amount);
}

/// Opens with a proposal, answers a counter with the midpoint of its last
/// offer and the counter.
caf::behavior initiator(caf::stateful_actor<agent_state>* self, std::uint32_t slot,
                        caf::actor relay) {
  self->state.slot = slot;
  self->state.relay = std::move(relay);
  return {
      [=](open_atom, std::int64_t amount) {
        self->state.last = amount;
        send_out(self, op_propose, 0, 0, amount);
      },
      [=](countered_atom, std::uint32_t nid, std::int64_t amount) {
        self->state.last = (self->state.last + amount) / 2;
        send_out(self, op_counter, 0, nid, self->state.last);
      },
  };
}

/// Counters a proposal at 85 %, accepts the next counter.
caf::behavior responder(caf::stateful_actor<agent_state>* self, std::uint32_t slot,
                        caf::actor relay) {
  self->state.slot = slot;
  self->state.relay = std::move(relay);
  return {
      [=](proposal_atom, std::uint32_t nid, std::int64_t amount) {
        send_out(self, op_counter, 1, nid, amount * 85 / 100);
      },
      [=](countered_atom, std::uint32_t nid, std::int64_t) {
        send_out(self, op_accept, 1, nid, 0);
      },
  };
}

struct bench_options {
  std::uint32_t n = 100000;
  std::uint32_t window = 1024;
  settings cfg;
};

struct bench_relay_state {
  bench_options opts;
  caf::actor node;
  caf::actor reporter;
  std::vector<caf::actor> agents; // initiator 2i, responder 2i+1
  outbox out;
  std::uint32_t next = 0;
  std::uint32_t ended = 0;
  std::uint32_t good = 0;
  clk::time_point begin;
};

void start_next(caf::stateful_actor<bench_relay_state>* self) {
  auto& st = self->state;
  if (st.next < st.opts.n) {
    auto i = st.next++;
    self->send(st.agents[2 * i], open_atom::value, std::int64_t{10000 + i % 1000});
  }
}

/// Prints the result line once the node said what CPU it used, and ends.
void finish(caf::stateful_actor<bench_relay_state>* self) {
  auto& st = self->state;
  auto seconds = std::chrono::duration<double>(clk::now() - st.begin).count();
  auto cpu = cpu_seconds();
  st.agents.clear();
  self->request(st.node, std::chrono::seconds(60), done_atom::value)
      .then([=](double node_cpu) {
        auto& st = self->state;
        std::printf("remote_floor W1 N=%u seconds=%.3f negotiations_per_s=%.0f "
                    "verified=%u bench_cpu_s=%.3f node_cpu_s=%.3f window=%u "
                    "flush_us=%llu max_batch=%llu\n",
                    st.opts.n, seconds, st.opts.n / seconds, st.good, cpu, node_cpu,
                    st.opts.window, static_cast<unsigned long long>(st.opts.cfg.flush_us),
                    static_cast<unsigned long long>(st.opts.cfg.max_batch));
        std::fflush(stdout);
        self->send(st.reporter, done_atom::value, st.good == st.opts.n);
        self->quit();
      });
}

caf::behavior bench_relay(caf::stateful_actor<bench_relay_state>* self, caf::actor node,
                          bench_options opts, caf::actor reporter) {
  auto& st = self->state;
  st.node = std::move(node);
  st.opts = opts;
  st.reporter = std::move(reporter);
  auto me = caf::actor_cast<caf::actor>(self);
  st.agents.reserve(2 * std::size_t{opts.n});
  for (std::uint32_t i = 0; i < opts.n; ++i) {
    st.agents.push_back(self->system().spawn<worker_flags>(initiator, i, me));
    st.agents.push_back(self->system().spawn<worker_flags>(responder, i, me));
  }
  self->request(st.node, std::chrono::seconds(60), build_atom::value, opts.n,
                opts.cfg.flush_us, opts.cfg.max_batch)
      .then([self](std::uint32_t) {
        auto& st = self->state;
        st.begin = clk::now();
        for (std::uint32_t k = 0; k < st.opts.window; ++k)
          start_next(self);
      });
  return {
      [=](frame_atom, const std::string& bytes) {
        auto& st = self->state;
        for_each_record(bytes, [&](const record& x) {
          if (x.op == op_ended) {
            ++st.ended;
            st.good += x.amount == 1 ? 1 : 0;
            start_next(self);
            return;
          }
          auto k = 2 * std::size_t{x.slot} + x.party;
          if (k >= st.agents.size())
            return;
          if (x.op == op_proposal)
            self->send(st.agents[k], proposal_atom::value, x.nid, x.amount);
          else if (x.op == op_countered)
            self->send(st.agents[k], countered_atom::value, x.nid, x.amount);
        });
        if (st.ended == st.opts.n)
          finish(self);
      },
      [=](out_atom, std::uint32_t slot, std::uint32_t op_party, std::uint32_t nid,
          std::int64_t amount) {
        auto& st = self->state;
        st.out.add(self, st.opts.cfg, st.node,
                   make_record(slot, static_cast<op>(op_party & 0xff),
                               static_cast<std::uint8_t>(op_party >> 8), nid, amount));
      },
      [=](flush_atom) { self->state.out.flush(self, self->state.node); },
  };
}

bool parse_option(const char* arg, const char* name, std::uint64_t& value) {
  auto n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0)
    return false;
  value = std::strtoull(arg + n, nullptr, 10);
  return true;
}

int usage() {
  std::fprintf(stderr, "usage: parley_remote_floor node PORT [MIDDLEMAN]\n"
                       "       parley_remote_floor bench HOST PORT N [--window=K] "
                       "[--flush-us=K] [--max-batch=K] [MIDDLEMAN]\n"
                       "MIDDLEMAN: [--mm-workers=K] [--mm-reads=K]\n");
  return 2;
}

/// CAF's middleman settings to try (0: CAF's default).
struct transport_options {
  std::uint64_t workers = 0;
  std::uint64_t max_reads = 0;

  bool parse(const char* arg) {
    return parse_option(arg, "--mm-workers=", workers) ||
           parse_option(arg, "--mm-reads=", max_reads);
  }
};

void configure(caf::actor_system_config& cfg, const transport_options& transport) {
  cfg.load<caf::io::middleman>();
  // As `parley node` and a caller with --remote (runtime/node.cpp).
  cfg.set("work-stealing.moderate-poll-attempts", std::size_t{0});
  if (transport.workers > 0)
    cfg.set("middleman.workers", static_cast<std::size_t>(transport.workers));
  if (transport.max_reads > 0)
    cfg.set("middleman.max-consecutive-reads",
            static_cast<std::size_t>(transport.max_reads));
}

int run_node(std::uint16_t port, const transport_options& transport) {
  caf::actor_system_config cfg;
  configure(cfg, transport);
  caf::actor_system sys{cfg};
  auto relay = sys.spawn(node_relay);
  auto published = sys.middleman().publish(relay, port, "127.0.0.1", true);
  if (!published) {
    std::fprintf(stderr, "cannot publish on port %u\n", port);
    caf::anon_send_exit(relay, caf::exit_reason::user_shutdown);
    return 1;
  }
  std::printf("remote_floor node listening on %u\n", *published);
  std::fflush(stdout);
  caf::scoped_actor waiter{sys};
  waiter->wait_for(relay);
  // As caf_floor and the peers: leave without tearing down the rooms (an exit message
  // to each would make 100k actors ready at once, and CAF's work stealing walk its
  // queues for seconds:
  // docs/caf-notes.md, "Work stealing collapses under long queues").
  std::_Exit(0);
}

int run_bench(const std::string& host, std::uint16_t port, bench_options opts,
              const transport_options& transport) {
  caf::actor_system_config cfg;
  configure(cfg, transport);
  caf::actor_system sys{cfg};
  auto node = sys.middleman().remote_actor(host, port);
  if (!node) {
    std::fprintf(stderr, "cannot reach %s:%u\n", host.c_str(), port);
    return 1;
  }
  caf::scoped_actor self{sys};
  sys.spawn(bench_relay, *node, opts, caf::actor{self});
  bool all_good = false;
  self->receive([&](done_atom, bool good) { all_good = good; });
  // As the node: without tearing down the agents.
  std::_Exit(all_good ? 0 : 1);
}

} // namespace

int main(int argc, char** argv) {
  transport_options transport;
  if (argc >= 3 && std::strcmp(argv[1], "node") == 0) {
    for (int i = 3; i < argc; ++i)
      if (!transport.parse(argv[i]))
        return usage();
    return run_node(static_cast<std::uint16_t>(std::atoi(argv[2])), transport);
  }
  if (argc < 5 || std::strcmp(argv[1], "bench") != 0)
    return usage();
  bench_options opts;
  opts.n = static_cast<std::uint32_t>(std::strtoul(argv[4], nullptr, 10));
  for (int i = 5; i < argc; ++i) {
    std::uint64_t v = 0;
    if (parse_option(argv[i], "--window=", v))
      opts.window = static_cast<std::uint32_t>(v);
    else if (parse_option(argv[i], "--flush-us=", v))
      opts.cfg.flush_us = v;
    else if (parse_option(argv[i], "--max-batch=", v))
      opts.cfg.max_batch = v;
    else if (!transport.parse(argv[i]))
      return usage();
  }
  if (opts.n == 0 || opts.window == 0 || opts.cfg.max_batch == 0)
    return usage();
  return run_bench(argv[2], static_cast<std::uint16_t>(std::atoi(argv[3])), opts,
                   transport);
}
