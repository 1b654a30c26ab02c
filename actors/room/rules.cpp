#include "actors/room/rules.hpp"

#include <algorithm>


namespace parley::actors::room {

using messages::error_code;
using messages::severity;

namespace {

negotiation::problem refuse(error_code code, std::string text) {
  return negotiation::problem{severity::error, code, std::move(text)};
}

} // namespace

rules::rules(std::string room_id, std::uint32_t history_limit, std::uint64_t seed)
    : room_id_(std::move(room_id)), history_(history_limit),
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
  // One active negotiation per room (docs/protocols/bilateral.md, "Rooms").
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
  auto chosen = settings;
  if (x.max_rounds != 0)
    chosen.max_rounds = x.max_rounds;
  if (x.expires_in_ms != 0)
    chosen.total_timeout_ms = x.expires_in_ms;
  negotiation::opening candidate{
      next_uuid(now_ms), room_id_,  x.intent_id.empty() ? next_uuid(now_ms) : x.intent_id,
      x.message_id,    x.initiator, x.responder,
      x.proposal,      chosen};
  if (auto why = negotiation::rules::validate_opening(candidate); !why.empty())
    return refuse(error_code::invalid_request, why);
  active_id_ = candidate.id;
  out = std::move(candidate);
  return std::nullopt;
}

std::optional<negotiation::problem>
rules::resume(const messages::negotiation_record& x, bool initiator_known,
              bool responder_known) {
  if (!active_id_.empty())
    return refuse(error_code::negotiation_in_progress,
                  "Cannot resume negotiation " + x.id + ": negotiation " + active_id_ +
                      " is in progress in room " + room_id_);
  if (!initiator_known || !responder_known)
    return refuse(error_code::agent_not_found,
                  "Cannot resume negotiation " + x.id + ": \"" +
                      (initiator_known ? x.responder : x.initiator) +
                      "\" is not a participant of room " + room_id_);
  active_id_ = x.id;
  return std::nullopt;
}

void rules::on_closed(const messages::negotiation_record& record) {
  if (record.id == active_id_)
    std::string{}.swap(active_id_); // an idle room keeps no id's memory
  history_.add(record);
}

std::string rules::resolve(const std::string& negotiation_id) const {
  if (negotiation_id.empty() || negotiation_id == "current")
    return active_id_;
  if (negotiation_id == "previous")
    return history_.newest_id();
  return negotiation_id;
}

route rules::route_of(const std::string& reference) const {
  auto negotiation_id = resolve(reference);
  if (negotiation_id.empty())
    return route::unknown;
  if (negotiation_id == active_id_)
    return route::active;
  return history_.contains(negotiation_id) ? route::finished : route::unknown;
}

std::string rules::next_uuid(std::int64_t now_ms) {
  // UUIDv7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, the version, 12 and
  // 62 random bits with the variant. Time-ordered, so a store's primary-key
  // index grows at its end; random bits from the room's seeded source, so a
  // simulated run gives the same ids every time.
  auto ms = static_cast<std::uint64_t>(std::max<std::int64_t>(now_ms, 0)) &
            0xffffffffffffULL;
  auto hi = (ms << 16) | 0x7000ULL | (next_random() & 0x0fffULL);
  auto lo = (next_random() & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
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
