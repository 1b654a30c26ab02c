#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/events.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"

namespace parley::actors::negotiation {

/// One side of a bilateral negotiation.
enum class party : std::uint8_t { initiator, responder };

/// A coded problem the shell publishes on the bus (and nothing else happens).
struct problem {
  messages::severity severity = messages::severity::error;
  messages::error_code code = messages::error_code::none;
  std::string message;
};

/// A timeout the shell must schedule: a `timer_due{generation}` to
/// self, due at `due_ms` (Unix milliseconds).
struct timer_request {
  std::int64_t due_ms = 0;
  std::uint64_t generation = 0;
};

/// What one input asks the actor shell to do, in this order: publish the
/// problem, publish the lifecycle event (with the whole record), tell the
/// parties that keep state of an expiry, relay the agent message to
/// `relay_to` (an offer with that party's `answer_terms`), arm the timer.
struct effects {
  std::optional<problem> refused;
  std::optional<messages::negotiation_event_kind> event;
  /// Deliver the message just applied (or, at start, the opening proposal) to
  /// this party.
  std::optional<party> relay_to;
  /// Expiry: the parties that keep state per negotiation get the expired
  /// event, since no agent message tells them.
  bool notify_parties = false;
  std::optional<timer_request> arm;

  /// True if the input changed the negotiation.
  bool changed() const { return event.has_value(); }
};

/// Everything needed to open a negotiation.
using opening = messages::negotiation_opening;

/// One bilateral negotiation (docs/protocols/bilateral.md) with its record's fields
/// (docs/protocols/record-and-schema.md, "The record"), as a plain state machine:
/// `state + input -> new state + effects`. No CAF, no clock: the caller passes the time
/// of every input.
///
/// Beyond the original specification
/// (docs/protocols/bilateral.md, "Departures from the original specifications"): a
/// message from a non-party, or a party acting out of turn, is refused with a coded
/// error and changes nothing; a message id that made a round is ignored with warning
/// E011 when the message is that round's move again (replay.hpp), and refused with
/// error E035 when it is another move. A counter past the round limit expires the
/// negotiation (docs/protocols/bilateral.md, "Round limit"), and is kept as the last
/// round (so that its message id is recognised too) without being taken up. One timer
/// is pending at a time, due at the nearer of the round and total deadlines; when a
/// counter moves the round deadline later, the pending timer is kept and re-armed when
/// it fires early.
class rules {
public:
  /// Opens the negotiation (docs/protocols/bilateral.md, "Opening"). The
  /// opening must be valid (see `validate_opening`). Timer generations count
  /// on from `first_generation` (an actor that runs several negotiations in
  /// turn keeps their timers apart).
  rules(opening x, std::int64_t now_ms, effects& out,
        std::uint64_t first_generation = 0);

  /// Resumes, at `now_ms`, a negotiation the store kept open (crash
  /// recovery): the record as it was; whose move it is, the two sides'
  /// latest amounts and the message ids already applied come from its
  /// rounds; the round deadline runs from the latest round, the total one is
  /// `expires_at`. A deadline that passed meanwhile expires it at once (the
  /// one that passed first is the reason); otherwise `out.relay_to` is the
  /// party to move (the shell hands it the latest offer again, see
  /// `latest_offer`) and `out.arm` its timer. No `started` event: the
  /// negotiation started before.
  static rules resume(messages::negotiation_record record, std::int64_t now_ms,
                      effects& out, std::uint64_t first_generation = 0);

  /// Returns an empty string if `x` can open a negotiation, otherwise why not.
  static std::string validate_opening(const opening& x);

  void on_message(const messages::agent_proposal& x, std::int64_t now_ms, effects& out);
  void on_message(const messages::agent_counter& x, std::int64_t now_ms, effects& out);
  void on_message(const messages::agent_accept& x, std::int64_t now_ms, effects& out);
  void on_message(const messages::agent_reject& x, std::int64_t now_ms, effects& out);

  /// A timer fired. Stale generations are ignored.
  void on_timer(std::uint64_t generation, std::int64_t now_ms, effects& out);

  const messages::negotiation_record& record() const noexcept { return record_; }

  const std::string& id() const noexcept { return id_; }

  const std::string& room_id() const noexcept { return room_id_; }

  /// Hands the record over (after a terminal event); only the status and ids
  /// stay behind, enough to answer late messages with a warning.
  messages::negotiation_record take_record();

  bool terminal() const noexcept { return messages::is_terminal(status_); }

  /// True while a timer is scheduled and not yet fired.
  bool timer_pending() const noexcept { return timer_due_ms_.has_value(); }

  /// The party whose move it is.
  party to_move() const noexcept { return to_move_; }

  const std::string& agent_of(party x) const noexcept {
    return x == party::initiator ? initiator_ : responder_;
  }

  /// The round of the latest proposal or counter (null if none): what a
  /// resumed negotiation hands the party to move again.
  const messages::negotiation_round* latest_offer() const;

  /// What `x`, handed the latest offer, needs to answer it: the rounds so
  /// far, its own latest amount, and the deadline that expires the
  /// negotiation unless it answers.
  messages::answer_terms terms_for(party x) const;

private:
  rules() = default;

  /// Checks what every agent message must pass; returns the sender's party.
  template <class AgentMessage>
  std::optional<party> admit(const AgentMessage& x, effects& out);

  void counter(const std::string& message_id, party from,
               const messages::proposal& proposal, const std::string& reason,
               std::int64_t now_ms, effects& out);

  void expire(const std::string& reason, std::int64_t now_ms, effects& out);

  void finish(messages::negotiation_status status, std::string reason,
              std::int64_t now_ms);

  /// The convergence of the two sides' latest amounts
  /// (docs/protocols/bilateral.md, "Convergence score"; unchanged until both made an
  /// offer).
  double convergence() const;

  /// Arms a timer for the nearer deadline unless one already pending fires
  /// no later than that.
  void schedule(effects& out);

  std::int64_t next_deadline() const;

  messages::negotiation_record record_;
  /// Copies of the identity that outlive `take_record`.
  std::string id_;
  std::string room_id_;
  std::string initiator_;
  std::string responder_;
  messages::negotiation_status status_ = messages::negotiation_status::proposed;
  party to_move_ = party::responder;
  std::optional<std::int64_t> initiator_amount_;
  std::optional<std::int64_t> responder_amount_;
  std::int64_t round_deadline_ms_ = 0;
  std::int64_t total_deadline_ms_ = 0;
  std::optional<std::int64_t> timer_due_ms_;
  std::uint64_t timer_generation_ = 0;
};

/// The expiry texts (docs/protocols/bilateral.md, "Timeouts",
/// docs/protocols/bilateral.md, "Round limit"), with the configured durations: "Round
/// timeout — no response within 30 seconds", "Total timeout — negotiation exceeded 2
/// minutes", "Round limit reached — 5 rounds".
std::string round_timeout_reason(std::int64_t round_timeout_ms);
std::string total_timeout_reason(std::int64_t total_timeout_ms);
std::string round_limit_reason(std::int32_t max_rounds);

/// The convergence score (docs/protocols/bilateral.md, "Convergence score"):
/// 1 − |a − b| / max(a, b), rounded to two decimals; 0 when either amount is not
/// positive.
double convergence_score(std::int64_t a, std::int64_t b);

} // namespace parley::actors::negotiation
