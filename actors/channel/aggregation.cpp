#include "actors/channel/aggregation.hpp"

#include <algorithm>

#include "actors/coordinator/rules.hpp"

namespace parley::actors::channel {

namespace {

using messages::offer_decision;

std::string notes_of(const messages::offer_response& x) {
  std::string notes;
  for (const auto& c : x.conditions)
    notes += (notes.empty() ? "" : "; ") + c;
  for (const auto& p : x.negotiation_points)
    notes += (notes.empty() ? "" : "; ") + p.aspect + ": " + p.desired_value;
  return notes;
}

/// The demand's tags that none of `taking_part` offers. (Sorted vectors, not
/// sets: a round's handful of keys needs no node per key.)
std::vector<messages::gap>
gaps_of(const aggregation_input& in,
        const std::vector<messages::assignment>& taking_part) {
  std::vector<std::string> covered;
  for (const auto& a : taking_part)
    if (auto i = in.capabilities.find(a.agent_id); i != in.capabilities.end())
      for (const auto& capability : i->second)
        covered.push_back(coordinator::tag_key(capability));
  std::sort(covered.begin(), covered.end());
  std::vector<messages::gap> result;
  std::vector<std::string> seen;
  for (const auto& tag : in.capability_tags) {
    auto key = coordinator::tag_key(tag);
    if (key.empty() || std::binary_search(covered.begin(), covered.end(), key) ||
        std::find(seen.begin(), seen.end(), key) != seen.end())
      continue;
    seen.push_back(std::move(key));
    result.push_back({"no participant offers " + tag, {tag}});
  }
  return result;
}

} // namespace

messages::channel_proposal aggregate(const aggregation_input& in,
                                     const messages::channel_settings& settings) {
  messages::channel_proposal x;
  x.proposal_id = in.channel_id + "-v" + std::to_string(in.round);
  x.demand_id = in.demand_id;
  x.version = in.round;
  x.objective = in.objective;
  x.created_at = in.now_ms;
  x.assignments.reserve(in.offers.size());
  for (const auto& offer : in.offers) {
    if (offer.decision == offer_decision::decline)
      continue;
    messages::assignment a;
    a.agent_id = offer.agent_id;
    a.display_name = offer.display_name;
    a.role = to_string(offer.decision);
    a.responsibility = offer.contribution;
    a.is_confirmed = offer.decision == offer_decision::participate;
    a.notes = notes_of(offer);
    x.assignments.push_back(std::move(a));
  }
  x.gaps = gaps_of(in, x.assignments);
  auto taking_part = static_cast<std::int32_t>(x.assignments.size());
  x.summary = std::to_string(taking_part) + " of " + std::to_string(in.invited) +
              " candidates take part";
  x.rationale = "Merged from " + std::to_string(in.offers.size()) + " answers";
  auto share = in.invited > 0 ? static_cast<double>(taking_part) / in.invited : 0.0;
  x.confidence =
      share >= settings.accept_threshold_high  ? messages::confidence_level::high
      : share >= settings.accept_threshold_low ? messages::confidence_level::medium
                                               : messages::confidence_level::low;
  return x;
}

} // namespace parley::actors::channel
