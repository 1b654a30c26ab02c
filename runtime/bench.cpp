#include "runtime/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/agent/actor.hpp"
#include "actors/bus/actor.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/type_ids.hpp"
#include "runtime/cluster.hpp"
#include "runtime/node.hpp"

namespace parley::runtime {

namespace {

using steady = std::chrono::steady_clock;

/// The driver's start requests go to local agents, whose own request to the
/// room is bounded, so they need no timer of their own: a timer per request
/// would wake CAF's clock thread once more per negotiation.
constexpr auto start_timeout = caf::infinite;

/// W2's timeouts (DESIGN.md).
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
  if (id.compare(0, 5, "room-") != 0)
    return -1;
  try {
    return std::stoll(id.substr(5));
  } catch (const std::exception&) {
    return -1;
  }
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

/// Everything the driver needs, built before the clock runs out of the gate.
struct bench_plan {
  bench_workload workload = bench_workload::w1;
  std::vector<caf::actor> initiators;
  std::vector<caf::actor> rooms;
  caf::actor bus;
  caf::actor listener;
  std::size_t window = 256;
  bool progress = false;
  std::ostream* err = nullptr;
  steady::time_point started;
  bool json = false;
};

struct driver_state {
  static inline const char* name = "parley.bench";
  bench_plan plan;
  std::optional<actors::wall_clock> clock;
  std::int64_t next = 0;
  std::int64_t in_flight = 0;
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

using driver_actor = caf::stateful_actor<driver_state>;

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

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", s);
  return buf;
}

std::string format_ms(std::int64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", static_cast<double>(us) / 1000.0);
  return buf;
}

/// Builds the result line and hands it to the listener.
void report(driver_actor* self) {
  auto& st = self->state;
  auto seconds = std::chrono::duration<double>(steady::now() - st.plan.started).count();
  auto n = total(st);
  auto ok = st.good == n && st.refused == 0 && st.problems == 0;
  auto rss = peak_rss_kb();
  nlohmann::json j;
  std::string line;
  if (st.plan.workload == bench_workload::w1) {
    auto rate = static_cast<double>(n) / seconds;
    auto p50 = percentile(st.round_trips_us, 50);
    auto p99 = percentile(st.round_trips_us, 99);
    auto max = percentile(st.round_trips_us, 100);
    line = "W1 N=" + std::to_string(n) + " seconds=" + format_seconds(seconds) +
           " negotiations_per_s=" + std::to_string(std::llround(rate)) +
           " accepted=" + std::to_string(st.good) +
           " peak_rss_kb=" + std::to_string(rss) + " rtt_p50_ms=" + format_ms(p50) +
           " rtt_p99_ms=" + format_ms(p99) + " rtt_max_ms=" + format_ms(max);
    j = {{"workload", "w1"},           {"n", n},
         {"seconds", seconds},         {"negotiations_per_s", rate},
         {"accepted", st.good},        {"peak_rss_kb", rss},
         {"rtt_p50_ms", p50 / 1000.0}, {"rtt_p99_ms", p99 / 1000.0},
         {"rtt_max_ms", max / 1000.0}};
  } else {
    auto p50 = percentile(st.lateness_us, 50);
    auto p99 = percentile(st.lateness_us, 99);
    auto max = percentile(st.lateness_us, 100);
    line = "W2 N=" + std::to_string(n) + " seconds=" + format_seconds(seconds) +
           " expired=" + std::to_string(st.good) + " p50_late_ms=" + format_ms(p50) +
           " p99_late_ms=" + format_ms(p99) + " max_late_ms=" + format_ms(max) +
           " peak_rss_kb=" + std::to_string(rss);
    j = {{"workload", "w2"},
         {"n", n},
         {"seconds", seconds},
         {"expired", st.good},
         {"p50_late_ms", p50 / 1000.0},
         {"p99_late_ms", p99 / 1000.0},
         {"max_late_ms", max / 1000.0},
         {"peak_rss_kb", rss}};
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

void finish_if_done(driver_actor* self) {
  auto& st = self->state;
  if (st.ended + st.refused == total(st) && st.in_flight == 0)
    report(self);
}

void launch_next(driver_actor* self);

void on_started(driver_actor* self) {
  --self->state.in_flight;
  launch_next(self);
  finish_if_done(self);
}

void launch_next(driver_actor* self) {
  auto& st = self->state;
  while (st.in_flight < static_cast<std::int64_t>(st.plan.window) &&
         st.next < total(st)) {
    auto i = st.next++;
    ++st.in_flight;
    messages::proposal p;
    p.amount = w1_amounts{i}.opening;
    p.currency = "GBP";
    self->request(
            st.plan.initiators[static_cast<std::size_t>(i)], start_timeout,
            messages::initiate_negotiation{st.plan.rooms[static_cast<std::size_t>(i)],
                                           responder_id(i),
                                           std::move(p),
                                           {}})
        .then([self](const messages::negotiation_record&) { on_started(self); },
              [self, i](const caf::error& err) {
                auto& st = self->state;
                ++st.refused;
                fail(st, room_id(i) + ": start refused: " + to_string(err));
                on_started(self);
              });
  }
}

caf::behavior driver(driver_actor* self, bench_plan plan) {
  auto& st = self->state;
  st.plan = std::move(plan);
  st.clock.emplace(self->system());
  auto me = caf::actor_cast<caf::actor>(self);
  for (auto topic : {"negotiation.updated", "negotiation.agreed",
                     "negotiation.rejected", "negotiation.expired", "error"})
    self->send(st.plan.bus, messages::subscribe_atom::value, std::string{topic}, me);
  st.closed.resize(st.plan.rooms.size(), false);
  if (st.plan.workload == bench_workload::w1)
    st.round_trips_us.reserve(static_cast<std::size_t>(total(st)) * 3);
  else
    st.lateness_us.reserve(static_cast<std::size_t>(total(st)));
  launch_next(self);
  return {
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        using kind = messages::negotiation_event_kind;
        if (x.round_trip_us > 0)
          st.round_trips_us.push_back(x.round_trip_us);
        if (x.kind == kind::updated)
          return;
        auto i = room_index(x.record.room_id);
        if (i >= 0 && i < total(st)) {
          if (st.closed[static_cast<std::size_t>(i)])
            return;
          st.closed[static_cast<std::size_t>(i)] = true;
        }
        ++st.ended;
        auto why = i < 0 ? "unknown room " + x.record.room_id
                         : verify(st.plan.workload, i, x.record);
        if (why.empty()) {
          ++st.good;
          if (x.kind == kind::expired) {
            auto due_us = (x.record.created_at + x.record.round_timeout_ms) * 1000;
            st.lateness_us.push_back(x.at_us - due_us);
          }
        } else {
          fail(st, x.record.room_id + ": " + why);
        }
        draw_progress(st);
        finish_if_done(self);
      },
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        ++st.problems;
        fail(st, x.room_id + ": " + to_code(x.code) + " " + x.message);
        // A negotiation lost with its node ends here.
        auto i = room_index(x.room_id);
        if (x.code == messages::error_code::node_unavailable && i >= 0 &&
            i < total(st) && !st.closed[static_cast<std::size_t>(i)]) {
          st.closed[static_cast<std::size_t>(i)] = true;
          ++st.ended;
          draw_progress(st);
          finish_if_done(self);
        }
      },
  };
}

} // namespace

std::int64_t peak_rss_kb() {
  std::ifstream status{"/proc/self/status"};
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, 6, "VmHWM:") == 0)
      return std::stoll(line.substr(6));
  return -1;
}

std::int64_t percentile(std::vector<std::int64_t>& xs, double p) {
  if (xs.empty())
    return 0;
  auto rank =
      static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(xs.size())));
  auto k = std::min(xs.size() - 1, rank > 0 ? rank - 1 : 0);
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(k), xs.end());
  return xs[k];
}

int run_bench(const bench_options& options, const config::settings& settings,
              std::ostream& out, std::ostream& err) {
  caf::actor_system_config cfg;
  configure(cfg, system_options{false, settings.runtime.scheduler_threads,
                                !options.remotes.empty(), settings.cluster});
  caf::actor_system sys{cfg};
  caf::scoped_actor listener{sys};
  auto n = options.negotiations;
  auto negotiation = settings.negotiation;
  if (options.workload == bench_workload::w2) {
    negotiation.round_timeout_ms = w2_round_timeout_ms;
    negotiation.total_timeout_ms = w2_total_timeout_ms;
  }
  bench_plan plan;
  plan.workload = options.workload;
  plan.started = steady::now();
  plan.bus = actors::bus::spawn_bus(sys);
  cluster nodes{sys, options.remotes, plan.bus};
  plan.listener = caf::actor_cast<caf::actor>(listener);
  plan.window = static_cast<std::size_t>(settings.runtime.start_window);
  plan.progress = options.progress;
  plan.err = &err;
  plan.json = options.json;
  plan.initiators.reserve(static_cast<std::size_t>(n));
  plan.rooms.reserve(static_cast<std::size_t>(n));
  std::vector<caf::actor> responders;
  responders.reserve(static_cast<std::size_t>(n));
  std::vector<messages::room_spec> room_specs;
  room_specs.reserve(static_cast<std::size_t>(n));
  // All rooms first (their actors start lazily, on their first message).
  for (std::int64_t i = 0; i < n; ++i) {
    w1_amounts amounts{i};
    messages::agent_spec initiator;
    initiator.id = initiator_id(i);
    initiator.brain.kind = messages::brain_kind::script;
    messages::agent_spec responder;
    responder.id = responder_id(i);
    responder.brain.kind = messages::brain_kind::script;
    if (options.workload == bench_workload::w1) {
      initiator.brain.script = {counter_with(amounts.midpoint)};
      responder.brain.script = {counter_with(amounts.counter),
                                just(messages::reply_action::accept)};
    } else {
      responder.brain.script = {just(messages::reply_action::silent)};
    }
    auto a = actors::agent::spawn_agent(sys, std::move(initiator),
                                        negotiation.max_rounds, plan.bus);
    auto b = actors::agent::spawn_agent(sys, std::move(responder),
                                        negotiation.max_rounds, plan.bus);
    messages::room_spec room;
    room.id = room_id(i);
    room.participants = {{initiator_id(i), a}, {responder_id(i), b}};
    room.settings = negotiation;
    room.history_limit = settings.room.history_limit;
    room.seed = static_cast<std::uint64_t>(i);
    room.bus = plan.bus;
    room_specs.push_back(std::move(room));
    plan.initiators.push_back(std::move(a));
    responders.push_back(std::move(b));
  }
  plan.rooms = nodes.spawn_rooms(std::move(room_specs));
  auto bus = plan.bus;
  auto rooms = plan.rooms;
  auto initiators = plan.initiators;
  sys.spawn(driver, std::move(plan));
  int exit_code = 1;
  listener->receive(
      [&](messages::done_atom, const std::string& result, std::int32_t code) {
        out << result << '\n';
        exit_code = code;
      });
  for (const auto& group : {rooms, initiators, responders})
    for (const auto& x : group)
      caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(bus, caf::exit_reason::user_shutdown);
  return exit_code;
}

} // namespace parley::runtime
