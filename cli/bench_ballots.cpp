#include "cli/bench_ballots.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/agent/voter.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/ballot/rules.hpp"
#include "cli/process_stats.hpp"
#include "cli/start_window.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"

namespace parley::cli {

namespace {

constexpr std::size_t groups = 10;
constexpr std::size_t voters_per_ballot = 9;
constexpr std::size_t tasks = 3;
constexpr std::size_t strategies = 4;
constexpr std::size_t ballot_window = 512;

const std::array<const char*, tasks> task_names = {"frontend", "backend", "security"};
const std::array<const char*, 5> roles = {"architect", "strategist", "builder",
                                          "guardian", "observer"};

/// The pool of voters, and the outcome every kind of ballot must have.
struct plan {
  std::vector<messages::agent_spec> agents; // group g holds agents 9g..9g+8
  std::vector<actors::agent_actor> handles;
  /// [group][strategy][task] -> (status, winner) by the pure rules.
  std::map<std::size_t, std::pair<messages::ballot_status, std::string>> expected;

  static std::size_t key(std::size_t g, std::size_t s, std::size_t t) {
    return (g * strategies + s) * tasks + t;
  }
};

messages::ballot_spec ballot_of(const plan& p, std::int64_t i) {
  auto u = static_cast<std::size_t>(i);
  messages::ballot_spec x;
  x.id = "ballot-" + std::to_string(i);
  x.topic = "bench";
  x.strategy = static_cast<messages::ballot_strategy>(u % strategies);
  x.task = task_names[(u / groups) % tasks];
  auto g = u % groups;
  for (std::size_t k = 0; k < voters_per_ballot; ++k) {
    const auto& a = p.agents[g * voters_per_ballot + k];
    x.voters.push_back({a.id, a.profile.role});
  }
  return x;
}

plan make_plan() {
  plan p;
  for (std::size_t g = 0; g < groups; ++g) {
    for (std::size_t k = 0; k < voters_per_ballot; ++k) {
      auto n = g * voters_per_ballot + k;
      messages::agent_spec a;
      a.id = "voter-" + std::to_string(n);
      a.profile.role = roles[(n * 7 + g) % roles.size()];
      for (std::size_t t = 0; t < tasks; ++t)
        a.profile.capabilities[task_names[t]] =
            static_cast<double>((n * 37 + t * 53 + g * 11) % 101) / 100.0;
      a.profile.load = static_cast<double>((n * 29 + g * 3) % 100) / 100.0;
      p.agents.push_back(std::move(a));
    }
  }
  for (std::size_t g = 0; g < groups; ++g)
    for (std::size_t s = 0; s < strategies; ++s)
      for (std::size_t t = 0; t < tasks; ++t) {
        auto i = static_cast<std::int64_t>(g + groups * t);
        auto spec = ballot_of(p, i);
        spec.strategy = static_cast<messages::ballot_strategy>(s);
        std::map<std::string, std::string> votes;
        for (std::size_t k = 0; k < voters_per_ballot; ++k) {
          const auto& a = p.agents[g * voters_per_ballot + k];
          votes.emplace(a.id, actors::agent::decide_vote(a.id, a.profile, spec));
        }
        auto x = actors::ballot::resolve_offline(spec, votes);
        p.expected.emplace(plan::key(g, s, t), std::make_pair(x.status, x.winner));
      }
  return p;
}

using ballot_listener_actor =
    caf::typed_actor<caf::reacts_to<messages::done_atom, std::int64_t>>;

/// The ballots bench driver: the ballots report their results to it.
using ballot_driver_actor = actors::subscriber_actor;

struct ballot_driver_state {
  static inline const char* name = "parley.bench.ballots";
  const plan* p = nullptr;
  runtime::world* builder = nullptr;
  std::int64_t n = 0;
  std::int64_t started = 0;
  std::int64_t finished = 0;
  std::int64_t wrong = 0;
  std::optional<start_window> window;
  ballot_listener_actor listener;
};

using ballot_driver_pointer =
    ballot_driver_actor::stateful_pointer<ballot_driver_state>;

void start_more(ballot_driver_pointer self) {
  auto& st = self->state;
  while (st.window->has_room() && st.started < st.n) {
    auto i = st.started++;
    st.window->launched();
    auto spec = ballot_of(*st.p, i);
    actors::ballot::peers with;
    with.reporter = caf::actor_cast<actors::subscriber_actor>(self);
    auto g = static_cast<std::size_t>(i) % groups;
    for (std::size_t k = 0; k < voters_per_ballot; ++k)
      with.invite.emplace(spec.voters[k].agent_id,
                          st.p->handles[g * voters_per_ballot + k]);
    st.builder->open_ballot(std::move(spec), std::move(with));
  }
}

ballot_driver_actor::behavior_type
ballots_driver(ballot_driver_pointer self, const plan* p, runtime::world* builder,
               std::int64_t n, ballot_listener_actor listener) {
  auto& st = self->state;
  st.p = p;
  st.builder = builder;
  st.n = n;
  st.listener = std::move(listener);
  st.window.emplace(ballot_window);
  start_more(self);
  return {
      [self](const messages::ballot_event& x) {
        auto& st = self->state;
        auto i = std::stoll(x.ballot_id.substr(7));
        auto u = static_cast<std::size_t>(i);
        const auto& want = st.p->expected.at(
            plan::key(u % groups, u % strategies, (u / groups) % tasks));
        if (!x.outcome || x.outcome->status != want.first ||
            x.outcome->winner != want.second)
          ++st.wrong;
        ++st.finished;
        st.window->settled();
        start_more(self);
        if (st.finished == st.n) {
          self->send(st.listener, messages::done_atom::value, st.wrong);
          self->quit();
        }
      },
      [](const messages::negotiation_event&) {},
      [](const messages::problem_event&) {},
      [](const messages::agent_event&) {},
      [](const messages::auction_event&) {},
      [](const messages::channel_event&) {},
      [](const messages::barrier&) {},
  };
}

} // namespace

int run_ballot_bench(std::int64_t n, bool json, std::ostream& out) {
  if (n <= 0) {
    out << "BALLOTS N=" << n << " nothing to do\n";
    return 1;
  }
  auto p = make_plan();
  caf::actor_system_config cfg;
  configure(cfg, runtime::system_options{});
  caf::actor_system sys{cfg};
  runtime::world w{sys, config::settings{}};
  for (const auto& a : p.agents)
    p.handles.push_back(w.add_agent(a));
  caf::scoped_actor listener{sys};
  auto begin = std::chrono::steady_clock::now();
  sys.spawn(ballots_driver, &p, &w, n,
            caf::actor_cast<ballot_listener_actor>(listener));
  std::int64_t wrong = n;
  listener->receive([&](messages::done_atom, std::int64_t x) { wrong = x; });
  auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  auto rate = static_cast<double>(n) / seconds;
  auto stats = read_process_stats();
  if (json)
    out << nlohmann::json{{"workload", "ballots"},    {"n", n},
                          {"seconds", seconds},       {"ballots_per_s", rate},
                          {"cpu_s", stats.cpu_s},     {"process_s", stats.process_s},
                          {"peak_rss_kb", stats.peak_rss_kb}, {"wrong", wrong}}
               .dump()
        << '\n';
  else
    out << "BALLOTS N=" << n << " seconds=" << seconds << " ballots_per_s=" << rate
        << " cpu_s=" << stats.cpu_s << " process_s=" << stats.process_s
        << " peak_rss_kb=" << stats.peak_rss_kb << " wrong=" << wrong << '\n';
  out.flush();
  std::fflush(nullptr);
  // Like `parley bench`: the finished ballots' pending window timers would
  // keep the process up for another window; the result is final.
  std::_Exit(wrong == 0 ? 0 : 1);
}

} // namespace parley::cli
