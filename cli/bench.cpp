#include "cli/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/store/store_url.hpp"
#include "cli/process_stats.hpp"
#include "cli/start_window.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"
#include "service/metrics_route.hpp"

namespace parley::cli {

namespace {

using steady = std::chrono::steady_clock;

/// W2's timeouts (docs/design.md, "The command line").
constexpr std::int64_t w2_round_timeout_ms = 1000;
constexpr std::int64_t w2_total_timeout_ms = 4000;

/// The amounts of room i's W1 exchange.
struct w1_amounts {
  std::int64_t opening;
  std::int64_t counter;
  std::int64_t midpoint;

  explicit w1_amounts(std::int64_t i)
      : opening(10000 + i % 1000), counter(opening * 85 / 100),
        midpoint((opening + counter) / 2) {}
};

std::string room_id(std::int64_t i) {
  return "room-" + std::to_string(i);
}

std::string initiator_id(std::int64_t i) {
  return "i" + std::to_string(i);
}

std::string responder_id(std::int64_t i) {
  return "r" + std::to_string(i);
}

/// The index i of "room-<i>", or -1.
std::int64_t room_index(const std::string& id) {
  if (id.size() <= 5 || id.compare(0, 5, "room-") != 0)
    return -1;
  std::int64_t i = 0;
  for (auto c = id.begin() + 5; c != id.end(); ++c) {
    if (*c < '0' || *c > '9' || i > 1'000'000'000'000)
      return -1;
    i = i * 10 + (*c - '0');
  }
  return i;
}

messages::script_reply counter_with(std::int64_t amount) {
  messages::script_reply x;
  x.action = messages::reply_action::counter;
  messages::proposal_patch patch;
  patch.amount = amount;
  x.proposal = patch;
  return x;
}

messages::script_reply just(messages::reply_action action) {
  messages::script_reply x;
  x.action = action;
  return x;
}

/// Returns an empty string if `r` is room i's negotiation ended as the
/// workload requires, otherwise what is wrong.
std::string verify(bench_workload workload, std::int64_t i,
                   const messages::negotiation_record& r) {
  using messages::negotiation_status;
  using messages::round_action;
  if (r.initiator != initiator_id(i) || r.responder != responder_id(i))
    return "wrong parties";
  w1_amounts amounts{i};
  if (workload == bench_workload::w2) {
    if (r.status != negotiation_status::expired)
      return "status " + to_string(r.status) + ", expected expired";
    if (r.rounds.size() != 1 || r.rounds[0].proposal.amount != amounts.opening)
      return "expected only the opening round";
    return {};
  }
  if (r.status != negotiation_status::accepted)
    return "status " + to_string(r.status) + ", expected accepted";
  if (r.rounds.size() != 4)
    return std::to_string(r.rounds.size()) + " rounds, expected 4";
  struct expected_round {
    const std::string& from;
    round_action action;
    std::int64_t amount;
  };
  auto initiator = initiator_id(i);
  auto responder = responder_id(i);
  expected_round expected[] = {{initiator, round_action::propose, amounts.opening},
                               {responder, round_action::counter, amounts.counter},
                               {initiator, round_action::counter, amounts.midpoint},
                               {responder, round_action::accept, amounts.midpoint}};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& got = r.rounds[k];
    if (got.from_agent != expected[k].from || got.action != expected[k].action ||
        got.proposal.amount != expected[k].amount)
      return "round " + std::to_string(k + 1) + " differs";
  }
  if (!r.final_proposal || r.final_proposal->amount != amounts.midpoint)
    return "wrong final proposal";
  return {};
}

/// The bench driver: a bus subscriber (terminal events and errors) that
/// starts on `step`.
using driver_actor =
    actors::subscriber_actor::extend<caf::reacts_to<messages::step_atom>>;

using listener_actor =
    caf::typed_actor<caf::reacts_to<messages::done_atom, std::string, std::int32_t>>;

/// Everything the driver needs, built before it starts.
struct bench_plan {
  bench_workload workload = bench_workload::w1;
  /// Room i and its initiator.
  std::vector<actors::room_actor> rooms;
  std::vector<actors::agent_actor> initiators;
  listener_actor listener;
  std::size_t window = 256;
  bool progress = false;
  std::ostream* err = nullptr;
  steady::time_point started;
  /// When every room and agent was built.
  steady::time_point built;
  bool json = false;
  /// The store every record is written to, if any: the run ends when it has
  /// committed them all.
  actors::store_actor store;
  std::string store_kind;
};

struct driver_state {
  static inline const char* name = "parley.bench";
  bench_plan plan;
  std::optional<start_window> window;
  std::int64_t next = 0;
  std::int64_t ended = 0;
  std::int64_t good = 0;
  std::int64_t refused = 0;
  std::int64_t problems = 0;
  std::string first_failure;
  std::vector<std::int64_t> round_trips_us;
  std::vector<std::int64_t> lateness_us;
  /// Per room: whether its negotiation has ended (or been lost with its node).
  std::vector<bool> closed;
  int last_percent = -1;
};

using driver_pointer = driver_actor::stateful_pointer<driver_state>;

std::int64_t total(const driver_state& st) {
  return static_cast<std::int64_t>(st.plan.rooms.size());
}

void fail(driver_state& st, std::string what) {
  if (st.first_failure.empty())
    st.first_failure = std::move(what);
}

void draw_progress(driver_state& st) {
  if (!st.plan.progress)
    return;
  auto percent =
      static_cast<int>(st.ended * 100 / std::max<std::int64_t>(total(st), 1));
  if (percent == st.last_percent)
    return;
  st.last_percent = percent;
  std::string bar(static_cast<std::size_t>(percent / 2), '#');
  bar.resize(50, ' ');
  *st.plan.err << "\r[" << bar << "] " << percent << "% " << st.ended << "/"
               << total(st) << std::flush;
  if (percent == 100)
    *st.plan.err << '\n';
}

std::string ms(std::int64_t us) {
  return fixed(static_cast<double>(us) / 1000.0, 3);
}

/// Builds the result line and hands it to the listener.
void report(driver_pointer self) {
  auto& st = self->state;
  auto seconds = std::chrono::duration<double>(steady::now() - st.plan.started).count();
  auto n = total(st);
  auto ok = st.good == n && st.refused == 0 && st.problems == 0;
  auto stats = read_process_stats();
  auto cpu_us = stats.cpu_s * 1e6 / static_cast<double>(std::max<std::int64_t>(n, 1));
  nlohmann::json j;
  std::string line;
  auto setup_s = std::chrono::duration<double>(st.plan.built - st.plan.started).count();
  auto common = " setup_s=" + fixed(setup_s, 3) + " cpu_s=" + fixed(stats.cpu_s, 3) +
                " cpu_us_per_neg=" + fixed(cpu_us, 1) +
                " process_s=" + fixed(stats.process_s, 2) +
                " peak_rss_kb=" + std::to_string(stats.peak_rss_kb);
  j = {{"n", n},
       {"seconds", seconds},
       {"setup_s", setup_s},
       {"cpu_s", stats.cpu_s},
       {"cpu_us_per_neg", cpu_us},
       {"process_s", stats.process_s},
       {"peak_rss_kb", stats.peak_rss_kb}};
  if (st.plan.workload == bench_workload::w1) {
    auto rate = static_cast<double>(n) / seconds;
    auto p50 = percentile(st.round_trips_us, 50);
    auto p99 = percentile(st.round_trips_us, 99);
    auto max = percentile(st.round_trips_us, 100);
    if (st.plan.store) {
      common += " store=" + st.plan.store_kind;
      j["store"] = st.plan.store_kind;
    }
    line = "W1 N=" + std::to_string(n) + " seconds=" + fixed(seconds, 3) +
           " negotiations_per_s=" + std::to_string(std::llround(rate)) +
           " accepted=" + std::to_string(st.good) + common + " rtt_p50_ms=" + ms(p50) +
           " rtt_p99_ms=" + ms(p99) + " rtt_max_ms=" + ms(max);
    j.update({{"workload", "w1"},
              {"negotiations_per_s", rate},
              {"accepted", st.good},
              {"rtt_p50_ms", p50 / 1000.0},
              {"rtt_p99_ms", p99 / 1000.0},
              {"rtt_max_ms", max / 1000.0}});
  } else {
    auto p50 = percentile(st.lateness_us, 50);
    auto p99 = percentile(st.lateness_us, 99);
    auto max = percentile(st.lateness_us, 100);
    line = "W2 N=" + std::to_string(n) + " seconds=" + fixed(seconds, 3) +
           " expired=" + std::to_string(st.good) + " p50_late_ms=" + ms(p50) +
           " p99_late_ms=" + ms(p99) + " max_late_ms=" + ms(max) + common;
    j.update({{"workload", "w2"},
              {"expired", st.good},
              {"p50_late_ms", p50 / 1000.0},
              {"p99_late_ms", p99 / 1000.0},
              {"max_late_ms", max / 1000.0}});
  }
  j["ok"] = ok;
  if (!ok) {
    auto why = "wrong outcomes: " + std::to_string(n - st.good) + " of " +
               std::to_string(n) + " (refused starts " + std::to_string(st.refused) +
               ", problems " + std::to_string(st.problems) + ")" +
               (st.first_failure.empty() ? "" : "; first: " + st.first_failure);
    j["failure"] = why;
    line += "\nFAILED: " + why;
  }
  self->send(st.plan.listener, messages::done_atom::value,
             st.plan.json ? j.dump() : line, static_cast<std::int32_t>(ok ? 0 : 1));
  self->quit();
}

/// How long the store may take to commit what is left at the end.
constexpr auto store_flush_limit = std::chrono::seconds{120};

void finish_if_done(driver_pointer self) {
  auto& st = self->state;
  if (st.ended + st.refused != total(st))
    return;
  if (!st.plan.store) {
    report(self);
    return;
  }
  // The last terminal event reached every subscriber, the store among them:
  // this flush lands behind it, and the clock stops once it is committed.
  self->request(st.plan.store, store_flush_limit, messages::flush_atom::value)
      .then([self](std::int64_t) { report(self); },
            [self](caf::error& err) {
              fail(self->state, "store: " + self->system().render(err));
              ++self->state.problems;
              report(self);
            });
}

/// Starts negotiations while the window has room.
void launch(driver_pointer self) {
  auto& st = self->state;
  while (st.window->has_room() && st.next < total(st)) {
    auto i = st.next++;
    auto u = static_cast<std::size_t>(i);
    st.window->launched();
    messages::proposal p;
    p.amount = w1_amounts{i}.opening;
    p.currency = "GBP";
    // Through the scheduler's shared queue, like a client outside the
    // runtime: a start sent from this worker would go to the front of its
    // queue, and the chain of starts would keep due timers waiting behind it.
    caf::anon_send(st.plan.initiators[u],
               messages::initiate_negotiation{st.plan.rooms[u], responder_id(i),
                                              std::move(p),
                                              {},
                                              {}});
  }
}

/// W1 counts a start in flight until its negotiation ends, W2 until it has
/// started (its negotiations stay open a whole second): either way a few
/// hundred negotiations move at a time.
bool settles_on_start(const driver_state& st) {
  return st.plan.workload == bench_workload::w2;
}

void settle(driver_pointer self) {
  self->state.window->settled();
  launch(self);
}

/// Room i's negotiation is over (ended, refused, or lost with its node).
void close(driver_pointer self, bool was_started) {
  auto& st = self->state;
  if (!was_started || !settles_on_start(st))
    st.window->settled();
  draw_progress(st);
  launch(self);
  finish_if_done(self);
}

/// The driver starts on its first message; it is spawned (lazily) and
/// subscribed before the rooms are placed, since rooms placed on nodes
/// publish what their bus wanted when they were placed.
driver_actor::behavior_type driver(driver_pointer self, bench_plan* plan) {
  auto& st = self->state;
  st.plan = std::move(*plan);
  st.window.emplace(st.plan.window);
  st.closed.resize(st.plan.rooms.size(), false);
  if (st.plan.workload == bench_workload::w1)
    st.round_trips_us.reserve(st.plan.rooms.size());
  else
    st.lateness_us.reserve(st.plan.rooms.size());
  return {
      [self](messages::step_atom) { launch(self); },
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        if (x.kind == messages::negotiation_event_kind::started) {
          settle(self);
          return;
        }
        auto i = room_index(x.room_id);
        if (i < 0 || i >= total(st) || !x.record) {
          ++st.problems;
          fail(st, "an event of unknown room " + x.room_id);
          return;
        }
        auto u = static_cast<std::size_t>(i);
        if (st.closed[u])
          return;
        st.closed[u] = true;
        ++st.ended;
        if (auto why = verify(st.plan.workload, i, *x.record); !why.empty()) {
          fail(st, x.room_id + ": " + why);
        } else {
          ++st.good;
          if (x.kind == messages::negotiation_event_kind::expired) {
            auto due_us = messages::saturating_mul(
                messages::saturating_add(x.record->created_at, x.record->round_timeout_ms),
                1000);
            st.lateness_us.push_back(x.at_us - due_us);
          } else {
            st.round_trips_us.push_back(x.round_trip_us);
          }
        }
        close(self, true);
      },
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        fail(st, x.room_id + ": " + to_code(x.code) + " " + x.message);
        auto i = room_index(x.room_id);
        if (i < 0 || i >= total(st) || st.closed[static_cast<std::size_t>(i)]) {
          ++st.problems;
          return;
        }
        // A refused start, or a negotiation lost with its node, ends here.
        st.closed[static_cast<std::size_t>(i)] = true;
        if (x.code == messages::error_code::node_unavailable) {
          ++st.problems;
          ++st.ended;
          close(self, true);
        } else {
          ++st.refused;
          close(self, false);
        }
      },
      [](const messages::agent_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      [](const messages::channel_event&) {},
      [](const messages::barrier&) {},
  };
}

/// Builds room i's two agents (scripted to the workload) and returns the
/// room's spec.
messages::room_spec build_room(runtime::world& w, bench_workload workload, std::int64_t i,
                               bench_plan& plan) {
  w1_amounts amounts{i};
  messages::agent_spec initiator;
  initiator.id = initiator_id(i);
  initiator.brain.kind = messages::brain_kind::script;
  messages::agent_spec responder;
  responder.id = responder_id(i);
  responder.brain.kind = messages::brain_kind::script;
  if (workload == bench_workload::w1) {
    initiator.brain.script = {counter_with(amounts.midpoint)};
    responder.brain.script = {counter_with(amounts.counter),
                              just(messages::reply_action::accept)};
  } else {
    responder.brain.script = {just(messages::reply_action::silent)};
  }
  auto a = w.add_agent(std::move(initiator));
  auto b = w.add_agent(std::move(responder));
  plan.initiators[static_cast<std::size_t>(i)] = a;
  return w.room_spec(room_id(i),
                     {{initiator_id(i), std::move(a), false},
                      {responder_id(i), std::move(b), false}},
                     static_cast<std::uint64_t>(i));
}

/// Builds every room, in batches (a node gets one request per batch): on
/// every core when they are local (spawning is thread-safe and the rooms
/// are independent), on one thread when they go to nodes.
void build_rooms(runtime::world& w, bench_workload workload, std::int64_t n, bool remote,
                 bench_plan& plan) {
  constexpr std::int64_t batch = 1000;
  plan.rooms.resize(static_cast<std::size_t>(n));
  plan.initiators.resize(static_cast<std::size_t>(n));
  auto build = [&](std::int64_t first, std::int64_t step) {
    for (auto begin = first * batch; begin < n; begin += step * batch) {
      auto end = std::min(n, begin + batch);
      std::vector<messages::room_spec> specs;
      specs.reserve(static_cast<std::size_t>(end - begin));
      for (auto i = begin; i < end; ++i)
        specs.push_back(build_room(w, workload, i, plan));
      auto built = w.add_rooms(std::move(specs));
      std::move(built.begin(), built.end(),
                plan.rooms.begin() + static_cast<std::ptrdiff_t>(begin));
    }
  };
  auto threads = remote ? 1 : std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> helpers;
  for (unsigned k = 1; k < threads; ++k)
    helpers.emplace_back(build, static_cast<std::int64_t>(k),
                         static_cast<std::int64_t>(threads));
  build(0, static_cast<std::int64_t>(threads));
  for (auto& t : helpers)
    t.join();
}

} // namespace

std::int64_t percentile(std::vector<std::int64_t>& xs, double p) {
  if (xs.empty())
    return 0;
  auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(xs.size())));
  auto k = std::min(xs.size() - 1, rank > 0 ? rank - 1 : 0);
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(k), xs.end());
  return xs[k];
}

void run_bench(const bench_options& options, const config::settings& settings,
               std::ostream& out, std::ostream& err) {
  auto started = steady::now();
  auto tuned = settings;
  if (options.workload == bench_workload::w2) {
    tuned.negotiation.round_timeout_ms = w2_round_timeout_ms;
    tuned.negotiation.total_timeout_ms = w2_total_timeout_ms;
  }
  caf::actor_system_config cfg;
  configure(cfg, runtime::system_options{false, settings.runtime.scheduler_threads,
                                !options.remotes.empty(), settings.cluster});
  caf::actor_system sys{cfg};
  caf::scoped_actor listener{sys};
  // Watched (--serve): /metrics too, its metrics actor on the bus.
  runtime::world w{sys, tuned, options.remotes, 0,
          options.watch.enabled ? service::make_node_metrics() : nullptr};
  bench_plan plan;
  if (!options.store.empty()) {
    // Watched, the run's API answers from the store.
    plan.store = w.add_store(options.store, !options.watch.enabled);
    plan.store_kind = actors::store::store_kind_name(options.store);
  }
  std::optional<watch> watching;
  if (options.watch.enabled)
    watching.emplace(w, options.watch, err);
  auto driving = sys.spawn<caf::lazy_init>(driver, &plan);
  auto topics =
      messages::terminal_topics | messages::topic_set::of(messages::topic::error);
  if (options.workload == bench_workload::w2)
    topics = topics | messages::topic_set::of(messages::topic::negotiation_started);
  w.events().subscribe(topics, driving);
  // All rooms first (their actors start lazily, on their first message).
  build_rooms(w, options.workload, options.negotiations, !options.remotes.empty(), plan);
  plan.workload = options.workload;
  plan.listener = caf::actor_cast<listener_actor>(listener);
  plan.window =
      static_cast<std::size_t>(settings.runtime.start_window_for(!options.remotes.empty()));
  plan.progress = options.progress;
  plan.err = &err;
  plan.started = started;
  plan.built = steady::now();
  plan.json = options.json;
  caf::anon_send(driving, messages::step_atom::value);
  int exit_code = 1;
  listener->receive(
      [&](messages::done_atom, const std::string& result, std::int32_t code) {
        out << result << '\n';
        exit_code = code;
      });
  out.flush();
  if (watching)
    watching->linger();
  err.flush();
  std::fflush(nullptr);
  if (!options.remotes.empty())
    w.stop();
  std::_Exit(exit_code);
}

} // namespace parley::cli
