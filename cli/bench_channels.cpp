#include "cli/bench_channels.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/after.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/store/store_url.hpp"
#include "cli/bench.hpp"
#include "cli/channel_mix.hpp"
#include "cli/process_stats.hpp"
#include "messages/handles/bus.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"

namespace parley::cli {

namespace {

using steady = std::chrono::steady_clock;

using channel_mix::accept_from_round;
using channel_mix::members_per_channel;
using channel_mix::pool_size;
constexpr std::int32_t expected_rounds = 3;
/// Per round: a demand_offer, an offer_response, a proposal_review and a
/// proposal_feedback per member.
constexpr std::int64_t messages_per_channel =
    expected_rounds * 4 * static_cast<std::int64_t>(members_per_channel);
/// The channels report their ends to this many collectors (channel i to
/// i % collectors), so that they are verified on every core.
constexpr std::size_t collectors = 4;
/// How long the run may take before the missing outcomes count as wrong.
constexpr auto give_up_after = std::chrono::minutes{5};
/// How long the store may take to commit what is left at the end.
constexpr auto channels_flush_limit = std::chrono::minutes{2};

const std::array<const char*, 5> capability_names = {"venue", "catering", "speakers",
                                                     "sponsorship", "media"};

messages::channel_member_spec member_of(std::size_t j) {
  messages::channel_member_spec x;
  x.profile.agent_id = "member-" + std::to_string(j);
  x.profile.display_name = "Member " + std::to_string(j);
  x.profile.capabilities = {capability_names[j % capability_names.size()]};
  x.brain = messages::member_brain_kind::rule;
  x.accept_from_round = accept_from_round(j);
  return x;
}

std::string channel_id(std::int64_t i) {
  return "ch-" + std::to_string(i);
}

/// The index i of "ch-<i>" (the bench names every channel), or -1.
std::int64_t channel_index(const std::string& id) {
  return id.compare(0, 3, "ch-") == 0 ? std::strtoll(id.c_str() + 3, nullptr, 10) : -1;
}

/// What one collector counted of its share of the channels.
struct share {
  std::int64_t channels = 0;
  std::int64_t finished = 0;
  std::int64_t wrong = 0;
  std::vector<std::int64_t> final_us;
  std::string first_failure;
};

/// Everything the collectors read and write: set up before the first
/// channel opens, read by the main thread once each collector said done.
struct bench_state {
  std::vector<steady::time_point> opened;
  std::array<share, collectors> shares;
  std::atomic<std::int64_t> problems{0};
  /// The first problem's text, written by a collector while the main thread
  /// may be reading it.
  std::mutex first_problem_mtx;
  std::string first_problem;
};

using channel_listener_actor =
    caf::typed_actor<caf::reacts_to<messages::done_atom, std::int64_t>>;

/// The channels' reporter (their terminal events) and the bus's problems.
using collector_actor = actors::subscriber_actor;

struct collector_state {
  static inline const char* name = "parley.bench.channels";
  bench_state* bench = nullptr;
  share* mine = nullptr;
  channel_listener_actor listener;
  std::int64_t index = 0;
};

using collector_pointer = collector_actor::stateful_pointer<collector_state>;

/// Empty if channel i's terminal event `x` is as the workload requires,
/// otherwise what is wrong.
std::string verify(const messages::channel_event& x) {
  if (x.kind != messages::channel_event_kind::finalized)
    return "ended " + to_string(x.kind) +
           (x.reason.empty() ? "" : " (" + x.reason + ")");
  if (x.round != expected_rounds)
    return "finalized at round " + std::to_string(x.round) + ", expected " +
           std::to_string(expected_rounds);
  if (!x.proposal || x.proposal->assignments.size() != members_per_channel)
    return "the final proposal does not assign all 10 members";
  return {};
}

void on_terminal(collector_pointer self, const messages::channel_event& x) {
  auto& st = self->state;
  auto& mine = *st.mine;
  auto i = channel_index(x.channel_id);
  auto why = verify(x);
  if (why.empty() && (i < 0 || i >= static_cast<std::int64_t>(st.bench->opened.size())))
    why = "unknown channel";
  if (why.empty()) {
    auto elapsed = steady::now() - st.bench->opened[static_cast<std::size_t>(i)];
    mine.final_us.push_back(
        std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count());
  } else {
    ++mine.wrong;
    if (mine.first_failure.empty())
      mine.first_failure = x.channel_id + ": " + why;
  }
  if (++mine.finished == mine.channels)
    self->send(st.listener, messages::done_atom::value, st.index);
}

collector_actor::behavior_type collector(collector_pointer self, bench_state* bench,
                                         std::int64_t index,
                                         channel_listener_actor listener) {
  auto& st = self->state;
  st.bench = bench;
  st.index = index;
  st.mine = &bench->shares[static_cast<std::size_t>(index)];
  st.listener = std::move(listener);
  return {
      [self](const messages::channel_event& x) { on_terminal(self, x); },
      [self](const messages::problem_event& x) {
        auto& bench = *self->state.bench;
        if (bench.problems.fetch_add(1) == 0) {
          std::lock_guard<std::mutex> guard{bench.first_problem_mtx};
          bench.first_problem =
              x.negotiation_id + ": " + to_code(x.code) + " " + x.message;
        }
      },
      [](const messages::negotiation_event&) {},
      [](const messages::agent_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      [](const messages::barrier&) {},
  };
}

} // namespace

int run_channel_bench(std::int64_t n, bool json, const std::string& store,
                      std::ostream& out) {
  if (n <= 0) {
    out << "CHANNELS N=" << n << " nothing to do\n";
    return 1;
  }
  caf::actor_system_config cfg;
  configure(cfg, runtime::system_options{});
  caf::actor_system sys{cfg};
  runtime::world w{sys, config::settings{}};
  std::string store_kind;
  if (!store.empty()) {
    w.add_store(store);
    store_kind = actors::store::store_kind_name(store);
  }
  std::vector<messages::channel_member_spec> members;
  std::vector<actors::channel_member_actor> pool;
  members.reserve(pool_size);
  pool.reserve(pool_size);
  for (std::size_t j = 0; j < pool_size; ++j) {
    members.push_back(member_of(j));
    pool.push_back(w.add_channel_member(members.back()));
  }
  bench_state bench;
  bench.opened.resize(static_cast<std::size_t>(n));
  caf::scoped_actor listener{sys};
  std::array<actors::channel_reporter_actor, collectors> reporters;
  for (std::size_t k = 0; k < collectors; ++k) {
    bench.shares[k].channels =
        n / static_cast<std::int64_t>(collectors) +
        (static_cast<std::int64_t>(k) < n % static_cast<std::int64_t>(collectors) ? 1
                                                                                  : 0);
    bench.shares[k].final_us.reserve(
        static_cast<std::size_t>(bench.shares[k].channels));
    auto c = sys.spawn(collector, &bench, static_cast<std::int64_t>(k),
                       caf::actor_cast<channel_listener_actor>(listener));
    if (k == 0)
      w.events().subscribe(messages::topic_set::of(messages::topic::error) |
                               messages::topic_set::of(messages::topic::warning),
                           c);
    reporters[k] = c;
  }
  std::vector<std::string> tags(capability_names.begin(), capability_names.end());
  auto begin = steady::now();
  for (std::int64_t i = 0; i < n; ++i) {
    auto u = static_cast<std::size_t>(i);
    actors::channel::channel_spec spec;
    spec.channel_id = channel_id(i);
    spec.demand_id = "demand-" + std::to_string(i);
    spec.surface_demand = "an AI meetup for 200 people";
    spec.capability_tags = tags;
    spec.candidates.reserve(members_per_channel);
    auto first = channel_mix::first_member(u);
    for (std::size_t k = 0; k < members_per_channel; ++k) {
      auto j = (first + k) % pool_size;
      spec.candidates.push_back({"member-" + std::to_string(j),
                                 "Member " + std::to_string(j), "bench", 80, pool[j],
                                 members[j].profile.capabilities});
    }
    bench.opened[u] = steady::now();
    w.open_channel(std::move(spec), {{}, reporters[u % collectors], {}});
  }
  std::size_t done = 0;
  bool gave_up = false;
  while (done < collectors && !gave_up)
    listener->receive([&](messages::done_atom, std::int64_t) { ++done; },
                      caf::after(give_up_after) >> [&] { gave_up = true; });
  // The last terminal event reached every subscriber, the store among them:
  // what the store has not committed yet is part of the work.
  auto store_failure = gave_up ? std::string{} : w.flush_store(channels_flush_limit);
  auto seconds = std::chrono::duration<double>(steady::now() - begin).count();
  // What the collectors wrote is read only once each said done; a run that
  // gave up reports and leaves at once (std::_Exit) without reading it.
  std::int64_t finished = 0;
  std::int64_t wrong = 0;
  std::vector<std::int64_t> final_us;
  std::string first_failure;
  if (!gave_up) {
    for (auto& s : bench.shares) {
      finished += s.finished;
      wrong += s.wrong;
      final_us.insert(final_us.end(), s.final_us.begin(), s.final_us.end());
      if (first_failure.empty())
        first_failure = s.first_failure;
    }
  }
  auto problems = bench.problems.load();
  std::string first_problem;
  {
    std::lock_guard<std::mutex> guard{bench.first_problem_mtx};
    first_problem = bench.first_problem;
  }
  wrong += n - finished;
  // Every channel verified finalized at round 3 with its 10 members assigned
  // exchanged exactly messages_per_channel messages with them.
  auto messages = finished * messages_per_channel;
  auto ok = wrong == 0 && problems == 0 && !gave_up && store_failure.empty();
  if (!store_failure.empty())
    first_failure = "store: " + store_failure;
  auto p50 = static_cast<double>(percentile(final_us, 50)) / 1000.0;
  auto p99 = static_cast<double>(percentile(final_us, 99)) / 1000.0;
  auto stats = read_process_stats();
  auto channel_rate = static_cast<double>(n) / seconds;
  auto message_rate = static_cast<double>(messages) / seconds;
  if (json) {
    nlohmann::json j{{"workload", "channels"},
                     {"n", n},
                     {"seconds", seconds},
                     {"channels_per_s", channel_rate},
                     {"messages_per_s", message_rate},
                     {"final_p50_ms", p50},
                     {"final_p99_ms", p99},
                     {"cpu_s", stats.cpu_s},
                     {"process_s", stats.process_s},
                     {"peak_rss_kb", stats.peak_rss_kb},
                     {"wrong", wrong},
                     {"problems", problems},
                     {"ok", ok}};
    if (!store_kind.empty())
      j["store"] = store_kind;
    if (!ok)
      j["failure"] = gave_up ? "gave up waiting" : first_failure;
    out << j.dump() << '\n';
  } else {
    out << "CHANNELS N=" << n << " seconds=" << fixed(seconds, 3)
        << " channels_per_s=" << fixed(channel_rate, 0)
        << " messages_per_s=" << fixed(message_rate, 0)
        << " final_p50_ms=" << fixed(p50, 3) << " final_p99_ms=" << fixed(p99, 3)
        << " cpu_s=" << fixed(stats.cpu_s, 3)
        << " process_s=" << fixed(stats.process_s, 2)
        << " peak_rss_kb=" << stats.peak_rss_kb << " wrong=" << wrong
        << (store_kind.empty() ? std::string{} : " store=" + store_kind) << '\n';
    if (!ok)
      out << "FAILED: " << (gave_up ? "gave up waiting" : first_failure)
          << (problems > 0 ? "; problems " + std::to_string(problems) +
                                 ", first: " + first_problem
                           : std::string{})
          << '\n';
  }
  out.flush();
  std::fflush(nullptr);
  // Like `parley bench`: tearing down the members and the finished
  // channels' pending timers is not part of the result.
  std::_Exit(ok ? 0 : 1);
}

} // namespace parley::cli
