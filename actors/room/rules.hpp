#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "actors/negotiation/rules.hpp"
#include "actors/room/history.hpp"
#include "messages/commands.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"

namespace parley::actors::room {

/// Where an agent message addressed to a room goes.
enum class route : std::uint8_t {
  active,   ///< to the active negotiation
  finished, ///< a negotiation in the history: dropped with a warning
  unknown,  ///< no such negotiation: dropped with a warning
};

/// A room's rules (docs/protocols/bilateral.md, "Rooms"): at most one
/// active negotiation, the history of ended ones (the newest `history_limit`),
/// routing of agent messages by negotiation id, and new negotiation ids.
class rules {
public:
  /// `seed` makes the generated ids reproducible. A `history_limit` of 0 keeps
  /// no history (the bus's subscribers keep the records).
  rules(std::string room_id, std::uint32_t history_limit, std::uint64_t seed);

  /// A room with no id yet (a room actor's state before its constructor
  /// sets it).
  rules() = default;

  /// Checks a start request. On success returns an opening for the
  /// negotiation rules (with a fresh id and, if none was given, an intent id)
  /// and marks it active; otherwise returns the problem and changes nothing.
  /// `initiator_known`/`responder_known` say whether they are participants.
  std::optional<negotiation::problem>
  start(const messages::start_negotiation& x, bool initiator_known,
        bool responder_known, const messages::negotiation_settings& settings,
        std::int64_t now_ms, negotiation::opening& out);

  /// Checks a negotiation to resume after a restart (crash recovery). On
  /// success marks it active; otherwise returns the problem and changes
  /// nothing.
  std::optional<negotiation::problem> resume(const messages::negotiation_record& x,
                                             bool initiator_known,
                                             bool responder_known);

  /// Records an ended negotiation (packed, if the room keeps history) and
  /// frees the room for the next one.
  void on_closed(const messages::negotiation_record& record);

  /// Resolves `negotiation_id` ("current" or empty means the active one,
  /// "previous" the most recently ended one).
  route route_of(const std::string& negotiation_id) const;

  /// Replaces "current"/"previous" (or empty) by the id they stand for; other
  /// ids are returned as they are.
  std::string resolve(const std::string& negotiation_id) const;

  /// The active negotiation's id, empty if none.
  const std::string& active_id() const noexcept { return active_id_; }

  /// Ended negotiations, oldest first.
  std::vector<messages::negotiation_record> history() const { return history_.records(); }

  const std::string& room_id() const noexcept { return room_id_; }

private:
  /// A time-ordered UUID (version 7) of `now_ms` from the room's random
  /// source: every negotiation id, and the intent_id when the starter
  /// gives none.
  std::string next_uuid(std::int64_t now_ms);

  /// The next number of a SplitMix64 sequence: 8 bytes of state, where a
  /// Mersenne Twister would cost each of a million rooms 2.5 KB.
  std::uint64_t next_random();

  std::string room_id_;
  std::string active_id_;
  room::history history_;
  std::uint64_t random_state_ = 0;
};

} // namespace parley::actors::room
