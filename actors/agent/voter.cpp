#include "actors/agent/voter.hpp"

#include <algorithm>
#include <cmath>

namespace parley::actors::agent {

namespace {

bool has(const std::vector<std::string>& xs, const std::string& x) {
  return std::find(xs.begin(), xs.end(), x) != xs.end();
}

} // namespace

std::string decide_vote(const std::string& agent_id,
                        const messages::agent_profile& profile,
                        const messages::ballot_spec& ballot) {
  const auto& options = ballot.options;
  if (has(options, "approve") && has(options, "reject")) {
    auto capability = 0.5;
    if (auto i = profile.capabilities.find(ballot.task);
        !ballot.task.empty() && i != profile.capabilities.end())
      capability = i->second;
    if (capability >= 0.5 && profile.load < 0.8)
      return "approve";
    if (ballot.strategy == messages::ballot_strategy::veto && capability < 0.2 &&
        (profile.role == "guardian" || profile.role == "strategist"))
      return "veto";
    return "reject";
  }
  const std::string* best = nullptr;
  double best_value = -1;
  for (const auto& o : options) {
    auto i = profile.capabilities.find(o);
    if (i != profile.capabilities.end() && i->second > best_value) {
      best = &o;
      best_value = i->second;
    }
  }
  if (best)
    return *best;
  if (has(options, agent_id))
    return agent_id;
  return options.empty() ? std::string{} : options.front();
}

std::optional<messages::bid> decide_bid(const std::string& agent_id,
                                        const messages::agent_profile& profile,
                                        const messages::auction_spec& auction) {
  auto i = profile.capabilities.find(auction.task);
  if (i == profile.capabilities.end() || i->second <= 0)
    return std::nullopt;
  auto load = std::clamp(profile.load, 0.0, 1.0);
  auto capability = std::clamp(i->second, 0.0, 1.0);
  auto ms = std::llround(static_cast<double>(auction.base_duration_ms) * (1.0 + load) /
                         capability);
  return messages::bid{auction.id, agent_id, capability, load,
                       std::max<std::int64_t>(1, ms)};
}

} // namespace parley::actors::agent
