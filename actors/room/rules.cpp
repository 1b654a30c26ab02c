#include "actors/room/rules.hpp"

#include <algorithm>

namespace parley::actors::room {

using messages::error_code;
using messages::severity;

namespace {

std::string base36(std::uint64_t x) {
  static constexpr char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string result;
  do {
    result.push_back(digits[x % 36]);
    x /= 36;
  } while (x > 0);
  std::reverse(result.begin(), result.end());
  return result;
}

negotiation::problem refuse(error_code code, std::string text) {
  return negotiation::problem{severity::error, code, std::move(text)};
}

} // namespace

rules::rules(std::string room_id, std::size_t history_limit, std::uint64_t seed)
    : room_id_(std::move(room_id)), history_limit_(history_limit),
      random_state_(seed ^ std::hash<std::string>{}(room_id_)) {}

std::uint64_t rules::next_random() {
  auto z = (random_state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::optional<negotiation::problem>
rules::start(const messages::start_negotiation& x, bool initiator_known,
             bool responder_known, const messages::negotiation_settings& settings,
             std::int64_t now_ms, negotiation::opening& out) {
  // Seed 000: one active negotiation per room.
  if (!active_id_.empty())
    return refuse(error_code::negotiation_in_progress,
                  "Negotiation already in progress");
  if (!initiator_known)
    return refuse(error_code::agent_not_found,
                  "\"" + x.initiator + "\" is not a participant of room " + room_id_);
  if (!responder_known)
    return refuse(error_code::agent_not_found,
                  "\"" + x.responder + "\" is not a participant of room " + room_id_);
  if (auto why = messages::validate(x.proposal); !why.empty())
    return refuse(error_code::invalid_proposal, "proposal: " + why);
  negotiation::opening candidate{
      next_id(now_ms), room_id_,    x.intent_id.empty() ? next_uuid() : x.intent_id,
      x.message_id,    x.initiator, x.responder,
      x.proposal,      settings};
  if (auto why = negotiation::rules::validate_opening(candidate); !why.empty())
    return refuse(error_code::invalid_request, why);
  active_id_ = candidate.id;
  out = std::move(candidate);
  return std::nullopt;
}

void rules::on_closed(const messages::negotiation_record& record) {
  if (record.id == active_id_)
    active_id_.clear();
  if (history_limit_ == 0)
    return;
  previous_id_ = record.id;
  if (history_.size() == history_limit_)
    history_.erase(history_.begin());
  history_.emplace_back(record);
}

std::vector<messages::negotiation_record> rules::history() const {
  std::vector<messages::negotiation_record> result;
  result.reserve(history_.size());
  for (const auto& x : history_)
    result.push_back(x.expand());
  return result;
}

std::string rules::resolve(const std::string& negotiation_id) const {
  if (negotiation_id.empty() || negotiation_id == "current")
    return active_id_;
  if (negotiation_id == "previous")
    return history_.empty() ? std::string{} : previous_id_;
  return negotiation_id;
}

route rules::route_of(const std::string& reference) const {
  auto negotiation_id = resolve(reference);
  if (negotiation_id.empty())
    return route::unknown;
  if (negotiation_id == active_id_)
    return route::active;
  auto ended = std::any_of(history_.begin(), history_.end(),
                           [&](const auto& x) { return x.id() == negotiation_id; });
  return ended ? route::finished : route::unknown;
}

std::string rules::next_id(std::int64_t now_ms) {
  if (now_ms != id_ms_) {
    id_ms_ = now_ms;
    id_suffixes_.clear();
  }
  std::uint64_t draw;
  do {
    draw = next_random() % (36u * 36u * 36u * 36u);
  } while (std::find(id_suffixes_.begin(), id_suffixes_.end(), draw) !=
           id_suffixes_.end());
  id_suffixes_.push_back(draw);
  auto suffix = base36(draw);
  suffix.insert(0, 4 - suffix.size(), '0');
  return "neg_" + base36(static_cast<std::uint64_t>(now_ms)) + "_" + suffix + "_" +
         room_id_;
}

std::string rules::next_uuid() {
  auto hi = next_random();
  auto lo = next_random();
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL; // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL; // variant 1
  static constexpr char hex[] = "0123456789abcdef";
  std::string result;
  result.reserve(36);
  for (int i = 0; i < 32; ++i) {
    auto word = i < 16 ? hi : lo;
    auto nibble = (word >> (60 - 4 * (i % 16))) & 0xf;
    result.push_back(hex[nibble]);
    if (i == 7 || i == 11 || i == 15 || i == 19)
      result.push_back('-');
  }
  return result;
}

} // namespace parley::actors::room
