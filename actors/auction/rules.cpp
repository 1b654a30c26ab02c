#include "actors/auction/rules.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <sstream>
#include <utility>

#include "messages/time_limits.hpp"

namespace parley::actors::auction {

using messages::error_code;

int role_priority(const std::string& role) {
  if (role == "architect")
    return 0;
  if (role == "strategist")
    return 1;
  if (role == "builder")
    return 2;
  if (role == "guardian")
    return 3;
  return 4;
}

double round6(double x) {
  return std::round(x * 1e6) / 1e6;
}

messages::bid_score score(const messages::bid& x, const std::string& role,
                          std::int64_t shortest_duration_ms) {
  messages::bid_score s;
  s.bidder = x.bidder;
  s.role = role;
  s.capability = round6(x.capability);
  s.availability = round6(1.0 - x.load);
  s.speed = round6(static_cast<double>(shortest_duration_ms) /
                   static_cast<double>(x.estimated_duration_ms));
  s.score = round6(0.4 * x.capability + 0.3 * (1.0 - x.load) +
                   0.3 * static_cast<double>(shortest_duration_ms) /
                       static_cast<double>(x.estimated_duration_ms));
  return s;
}

messages::auction_outcome rank(const std::vector<messages::bid>& bids,
                               const std::vector<std::string>& roles) {
  messages::auction_outcome out;
  if (bids.empty()) {
    out.status = messages::auction_status::no_bids;
    out.reason = "no bids";
    return out;
  }
  std::int64_t shortest = bids.front().estimated_duration_ms;
  for (const auto& b : bids)
    shortest = std::min(shortest, b.estimated_duration_ms);
  std::vector<std::size_t> order(bids.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<messages::bid_score> scores;
  for (std::size_t i = 0; i < bids.size(); ++i)
    scores.push_back(score(bids[i], roles[i], shortest));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    if (scores[x].score != scores[y].score)
      return scores[x].score > scores[y].score;
    return role_priority(roles[x]) < role_priority(roles[y]);
    // equal priority: stable_sort keeps arrival order (earliest bid first)
  });
  for (auto i : order)
    out.ranking.push_back(scores[i]);
  const auto& best = out.ranking.front();
  out.status = messages::auction_status::awarded;
  out.winner = best.bidder;
  std::ostringstream why;
  why << best.bidder << " scored " << best.score;
  if (out.ranking.size() > 1 && out.ranking[1].score == best.score) {
    if (role_priority(out.ranking[1].role) != role_priority(best.role))
      why << ", tie broken by role priority";
    else
      why << ", tie broken by the earliest bid";
  }
  out.reason = why.str();
  return out;
}

std::string validate(const messages::bid& x) {
  auto in_unit = [](double v) {
    return std::isfinite(v) && v >= 0.0 && v <= 1.0;
  };
  if (!in_unit(x.capability))
    return "capability must be within 0..1";
  if (!in_unit(x.load))
    return "load must be within 0..1";
  if (auto why =
          messages::check_range(x.estimated_duration_ms, 1, messages::max_delay_ms);
      !why.empty())
    return "estimated_duration_ms " + why;
  return {};
}

std::string validate(const messages::auction_spec& x) {
  if (x.id.empty())
    return "id must not be empty";
  if (x.invited.empty())
    return "invited must not be empty";
  std::set<std::string> ids;
  for (const auto& p : x.invited) {
    if (p.agent_id.empty())
      return "invited agent ids must not be empty";
    if (!ids.insert(p.agent_id).second)
      return "agent \"" + p.agent_id + "\" is invited twice";
  }
  if (auto why = messages::check_range(x.window_ms, 1, messages::max_delay_ms);
      !why.empty())
    return "window_ms " + why;
  if (auto why = messages::check_range(x.base_duration_ms, 1, messages::max_delay_ms);
      !why.empty())
    return "base_duration_ms " + why;
  return {};
}

rules::rules(messages::auction_spec x) : spec_(std::move(x)) {
  for (const auto& p : spec_.invited)
    roles_.emplace(p.agent_id, p.role);
}

void rules::on_bid(const messages::bid& x, effects& out) {
  auto refuse = [&](error_code code, std::string message) {
    out.refused = refusal{code, std::move(message)};
  };
  if (x.auction_id != spec_.id)
    return refuse(error_code::invalid_bid,
                  "bid for auction \"" + x.auction_id + "\" sent to " + spec_.id);
  auto i = roles_.find(x.bidder);
  if (i == roles_.end())
    return refuse(error_code::not_eligible,
                  x.bidder + " is not invited to " + spec_.id);
  for (const auto& b : bids_)
    if (b.bidder == x.bidder)
      return refuse(error_code::already_cast,
                    x.bidder + " already bid in " + spec_.id + "; bids are final");
  if (resolved_)
    return refuse(error_code::voting_closed, spec_.id + " is already resolved");
  if (auto why = validate(x); !why.empty())
    return refuse(error_code::invalid_bid, why);
  bids_.push_back(x);
  bid_roles_.push_back(i->second);
  out.accepted = x;
  if (bids_.size() == spec_.invited.size())
    resolve(out);
}

void rules::on_window_closed(effects& out) {
  if (!resolved_)
    resolve(out);
}

void rules::resolve(effects& out) {
  resolved_ = true;
  out.resolved = rank(bids_, bid_roles_);
}

} // namespace parley::actors::auction
