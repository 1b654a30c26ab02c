// parley_channel_floor: the least work that plays `parley bench --workload
// channels` with CAF 0.17 actors: the same 120 channel-member messages per
// channel (3 rounds of 10 offers asked and answered, 10 reviews asked and
// answered), the same pool of 1000 members and the same acceptance mix, but
// atoms and integers for messages, no events, no timers, no strings. What
// CAF itself costs for the workload on this machine (BENCHMARKS.md).
//
// Usage: parley_channel_floor [N]   (default 10000)

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <condition_variable>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"

#include "cli/channel_mix.hpp"

namespace {

using clk = std::chrono::steady_clock;

using ask_offer_atom = caf::atom_constant<caf::atom("askoffer")>;
using offer_atom = caf::atom_constant<caf::atom("offer")>;
using ask_review_atom = caf::atom_constant<caf::atom("askreview")>;
using feedback_atom = caf::atom_constant<caf::atom("feedback")>;

using parley::cli::channel_mix::accept_from_round;
using parley::cli::channel_mix::members_per_channel;
using parley::cli::channel_mix::pool_size;

struct finish_line {
  std::atomic<std::int64_t> done{0};
  std::atomic<std::int64_t> wrong{0};
  std::int64_t n = 0;
  std::mutex mtx;
  std::condition_variable cv;

  void finished(bool ok) {
    if (!ok)
      ++wrong;
    if (++done == n) {
      std::lock_guard<std::mutex> guard{mtx};
      cv.notify_one();
    }
  }
};

caf::behavior member(caf::event_based_actor* self, std::int32_t accept_from) {
  return {
      [self](ask_offer_atom, std::int32_t) {
        self->send(caf::actor_cast<caf::actor>(self->current_sender()), offer_atom::value);
      },
      [self, accept_from](ask_review_atom, std::int32_t round) {
        self->send(caf::actor_cast<caf::actor>(self->current_sender()),
                   feedback_atom::value, round >= accept_from);
      },
  };
}

caf::behavior channel(caf::event_based_actor* self, std::vector<caf::actor> members,
                      finish_line* line) {
  struct state {
    std::int32_t round = 1;
    std::size_t answers = 0;
    std::size_t accepts = 0;
  };
  auto st = std::make_shared<state>();
  for (const auto& m : members)
    self->send(m, ask_offer_atom::value, st->round);
  return {
      [self, st, members](offer_atom) {
        if (++st->answers < members.size())
          return;
        st->answers = 0;
        for (const auto& m : members)
          self->send(m, ask_review_atom::value, st->round);
      },
      [self, st, members, line](feedback_atom, bool accepted) {
        st->accepts += accepted ? 1 : 0;
        if (++st->answers < members.size())
          return;
        auto rate = static_cast<double>(st->accepts) / static_cast<double>(members.size());
        st->answers = 0;
        st->accepts = 0;
        if (rate >= 0.8 || rate < 0.5 || st->round >= 5) {
          line->finished(rate >= 0.8 && st->round == 3);
          self->quit();
          return;
        }
        ++st->round;
        for (const auto& m : members)
          self->send(m, ask_offer_atom::value, st->round);
      },
  };
}

} // namespace

int main(int argc, char** argv) {
  std::int64_t n = argc > 1 ? std::strtoll(argv[1], nullptr, 10) : 10000;
  if (n <= 0) {
    std::fprintf(stderr, "usage: parley_channel_floor [N > 0]\n");
    return 2;
  }
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::vector<caf::actor> pool;
  pool.reserve(pool_size);
  for (std::size_t j = 0; j < pool_size; ++j)
    pool.push_back(sys.spawn(member, accept_from_round(j)));
  finish_line line;
  line.n = n;
  auto begin = clk::now();
  for (std::int64_t i = 0; i < n; ++i) {
    std::vector<caf::actor> members;
    members.reserve(members_per_channel);
    auto first = parley::cli::channel_mix::first_member(static_cast<std::size_t>(i));
    for (std::size_t k = 0; k < members_per_channel; ++k)
      members.push_back(pool[(first + k) % pool_size]);
    sys.spawn(channel, std::move(members), &line);
  }
  {
    std::unique_lock<std::mutex> guard{line.mtx};
    line.cv.wait_for(guard, std::chrono::minutes{5}, [&] { return line.done == n; });
  }
  auto seconds = std::chrono::duration<double>(clk::now() - begin).count();
  auto ok = line.done == n && line.wrong == 0;
  std::printf("CHANNEL_FLOOR N=%lld seconds=%.3f channels_per_s=%.0f messages_per_s=%.0f "
              "wrong=%lld\n",
              static_cast<long long>(n), seconds, static_cast<double>(n) / seconds,
              static_cast<double>(n) * 120.0 / seconds,
              static_cast<long long>(n - line.done + line.wrong));
  for (const auto& m : pool)
    caf::anon_send_exit(m, caf::exit_reason::user_shutdown);
  return ok ? 0 : 1;
}
