#include "tournament/runner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "actors/agent/domain_preference.hpp"
#include "outcomes/frontier.hpp"
#include "outcomes/scores.hpp"
#include "tournament/match.hpp"

namespace parley::tournament {

using actors::agent::domain_preference;
using actors::agent::domain_space;

namespace {

/// SplitMix64 (Steele, Lea and Flood 2014): a well-mixed 64-bit value from
/// a counter, the same on every platform.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

/// A seeded stream of uniform doubles in [0, 1) for one scenario and
/// repetition (docs/tournament.md, "Noise").
class noise_stream {
public:
  noise_stream(std::uint64_t seed, std::size_t scenario, std::size_t repetition)
      : state_(splitmix64(splitmix64(seed ^ 0x5041524c4559ULL) + scenario) +
               repetition) {}

  double next() {
    state_ = splitmix64(state_);
    return static_cast<double>(state_ >> 11) * 0x1.0p-53;
  }

private:
  std::uint64_t state_;
};

/// What every negotiation of one scenario shares.
struct scenario_setup {
  const scenario_spec* spec = nullptr;
  std::shared_ptr<const domain_space> buyer;
  std::shared_ptr<const domain_space> seller;
  std::vector<outcomes::point> points;
};

/// What the negotiations of one scenario and repetition share: the noised
/// reservation values, the analysis by them, each side's preference and
/// profile, and each side's opening.
struct block_setup {
  outcomes::bilateral_analysis analysis;
  party_setup buyer;
  party_setup seller;
  messages::proposal buyer_opening;
  messages::proposal seller_opening;
};

scenario_setup setup_scenario(const scenario_spec& s) {
  scenario_setup x;
  x.spec = &s;
  x.buyer = std::make_shared<domain_space>(s.buyer, messages::bargaining_side::buyer);
  x.seller =
      std::make_shared<domain_space>(s.seller, messages::bargaining_side::seller);
  auto b = x.buyer->utilities();
  auto v = x.seller->utilities();
  x.points.reserve(b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    x.points.push_back({b[i], v[i]});
  return x;
}

block_setup setup_block(const scenario_setup& s, const noise_spec& noise,
                        std::uint64_t seed, std::size_t scenario,
                        std::size_t repetition) {
  noise_stream random{seed, scenario, repetition};
  auto jitter = [&](double r) {
    auto moved = r + noise.reservation * (2.0 * random.next() - 1.0);
    return std::clamp(moved, 0.0, 1.0);
  };
  block_setup b;
  outcomes::point reservation{jitter(s.spec->buyer.reservation),
                              jitter(s.spec->seller.reservation)};
  b.analysis = outcomes::analyse(s.points, reservation);
  auto buyer_pref = std::make_shared<domain_preference>(s.buyer, reservation.first);
  auto seller_pref = std::make_shared<domain_preference>(s.seller, reservation.second);
  // The brains take the shared preferences, so the profiles need not carry
  // the utilities (each match copies them).
  b.buyer.profile = party_profile(*s.spec, role::buyer, reservation.first);
  b.buyer.profile.utility = caf::none;
  b.buyer.preference = buyer_pref;
  b.seller.profile = party_profile(*s.spec, role::seller, reservation.second);
  b.seller.profile.utility = caf::none;
  b.seller.preference = seller_pref;
  messages::proposal base;
  base.currency = s.spec->currency;
  base.description = s.spec->name;
  b.buyer_opening = buyer_pref->offer_at(1.0 - noise.opening * random.next(), base);
  b.seller_opening = seller_pref->offer_at(1.0 - noise.opening * random.next(), base);
  return b;
}

/// Plays and scores negotiation `index`, the match of `buyer` against
/// `seller` with `opener` opening, in block `b`.
negotiation_result play_one(const tournament_spec& spec, const scenario_setup& s,
                            const block_setup& b, std::uint64_t seed, std::size_t index,
                            std::size_t scenario, std::size_t repetition,
                            std::size_t buyer, std::size_t seller, role opener) {
  match_setup m;
  m.id = "t" + std::to_string(index);
  m.max_rounds = s.spec->max_rounds;
  m.buyer = b.buyer;
  m.buyer.player = spec.players[buyer];
  m.buyer.seed = splitmix64(seed + 2 * index);
  m.seller = b.seller;
  m.seller.player = spec.players[seller];
  m.seller.seed = splitmix64(seed + 2 * index + 1);
  m.opener = opener;
  m.opening = opener == role::buyer ? b.buyer_opening : b.seller_opening;
  auto record = play(m);

  negotiation_result r;
  r.index = index;
  r.scenario = scenario;
  r.repetition = repetition;
  r.buyer_strategy = buyer;
  r.seller_strategy = seller;
  r.opener = opener;
  r.status = messages::to_string(record.status);
  r.agreement = record.status == messages::negotiation_status::accepted;
  r.rounds = static_cast<std::int32_t>(record.rounds.size());
  r.relative_time = static_cast<double>(r.rounds) / s.spec->max_rounds;
  r.reservation = b.analysis.reservation;
  auto utilities_of = [&](const messages::proposal& p) {
    return outcomes::point{s.buyer->utility(p), s.seller->utility(p)};
  };
  r.score = r.agreement ? outcomes::score_point(b.analysis,
                                                utilities_of(record.current_proposal))
                        : outcomes::score_no_agreement(b.analysis);
  if (repetition == 0)
    for (const auto& round : record.rounds)
      if (round.action == messages::round_action::propose ||
          round.action == messages::round_action::counter)
        r.trace.push_back(
            {round.from_agent == agent_id(role::buyer) ? role::buyer : role::seller,
             utilities_of(round.proposal)});
  return r;
}

scenario_summary summarise(const scenario_setup& s) {
  auto a = outcomes::analyse(s.points,
                             {s.spec->buyer.reservation, s.spec->seller.reservation});
  scenario_summary x;
  x.name = s.spec->name;
  x.outcomes = s.points;
  x.reservation = a.reservation;
  x.frontier = a.frontier;
  x.nash = a.nash;
  x.kalai_smorodinsky = a.kalai_smorodinsky;
  x.egalitarian = a.egalitarian;
  x.max_welfare = a.max_welfare;
  x.opposition = a.opposition;
  return x;
}

} // namespace

std::size_t negotiation_count(const tournament_spec& spec) {
  auto p = spec.players.size();
  return p * p * spec.scenarios.size() * static_cast<std::size_t>(spec.repetitions) * 2;
}

tournament_results run_tournament(const tournament_spec& spec,
                                  const run_options& options) {
  tournament_results results;
  results.seed = options.seed;
  for (const auto& p : spec.players)
    results.strategies.push_back(p.name);
  std::vector<scenario_setup> scenarios;
  for (const auto& s : spec.scenarios) {
    scenarios.push_back(setup_scenario(s));
    results.scenarios.push_back(summarise(scenarios.back()));
  }
  auto players = spec.players.size();
  auto per_block = players * players * 2;
  auto repetitions = static_cast<std::size_t>(spec.repetitions);
  auto blocks = scenarios.size() * repetitions;
  auto total = blocks * per_block;
  results.negotiations.resize(total);

  // Workers take blocks (a scenario and a repetition) in turn and write each
  // result at its index: the order of the results never depends on them.
  std::atomic<std::size_t> next_block{0};
  std::atomic<std::size_t> done{0};
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t workers_left = std::max<std::size_t>(options.jobs, 1);
  auto play_blocks = [&] {
    for (auto block = next_block++; block < blocks; block = next_block++) {
      auto scenario = block / repetitions;
      auto repetition = block % repetitions;
      const auto& s = scenarios[scenario];
      auto b = setup_block(s, spec.noise, options.seed, scenario, repetition);
      auto index = block * per_block;
      for (std::size_t buyer = 0; buyer < players; ++buyer)
        for (std::size_t seller = 0; seller < players; ++seller)
          for (auto opener : {role::buyer, role::seller}) {
            results.negotiations[index] =
                play_one(spec, s, b, options.seed, index, scenario, repetition, buyer,
                         seller, opener);
            ++index;
          }
      done += per_block;
    }
  };
  std::exception_ptr failure;
  auto work = [&] {
    try {
      play_blocks();
    } catch (...) {
      std::lock_guard<std::mutex> lock{mutex};
      if (!failure)
        failure = std::current_exception();
      next_block = blocks; // the others stop after their current block
    }
    std::lock_guard<std::mutex> lock{mutex};
    if (--workers_left == 0)
      finished.notify_all();
  };
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < std::max<std::size_t>(options.jobs, 1); ++i)
    threads.emplace_back(work);
  {
    std::unique_lock<std::mutex> lock{mutex};
    while (!finished.wait_for(lock, std::chrono::milliseconds{200},
                              [&] { return workers_left == 0; }))
      if (options.progress)
        options.progress(done.load(), total);
  }
  for (auto& t : threads)
    t.join();
  if (failure)
    std::rethrow_exception(failure);
  if (options.progress)
    options.progress(total, total);
  return results;
}

} // namespace parley::tournament
