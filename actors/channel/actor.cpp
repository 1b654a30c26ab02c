#include "actors/channel/actor.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/channel/aggregation.hpp"
#include "actors/channel/recovery.hpp"
#include "actors/channel/rules.hpp"
#include "actors/channel/snapshot.hpp"
#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/channel_messages.hpp"
#include "messages/commands.hpp"
#include "messages/events.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::channel {

namespace {

using messages::channel_event_kind;
using messages::error_code;
using messages::severity;

/// Where one candidate stands (a channel keeps one per candidate, in the
/// candidates' order, rather than sets of agent ids).
struct seat {
  /// Withdrew: no later round asks it again.
  bool withdrawn = false;
  /// Got the demand this round, and its answer so far (a later answer
  /// replaces an earlier one: docs/protocols/channels.md, "Collecting offers").
  bool invited = false;
  std::optional<messages::offer_response> offer;
  /// Was put the round's proposal, and gave feedback on it.
  bool participant = false;
  bool reviewed = false;
};

struct channel_state {
  static inline const char* name = "parley.channel";
  channel_spec spec;
  peers with;
  std::optional<wall_clock> clock;
  channel_status status = channel_status::created;
  std::int32_t round = 1;
  processed_messages processed;
  /// One per candidate, and how many are invited, have offered, take part
  /// and have reviewed this round.
  std::vector<seat> seats;
  std::size_t invited = 0;
  std::size_t offered = 0;
  std::size_t participants = 0;
  std::size_t reviewed = 0;
  /// What every round's aggregation starts from: the demand and the
  /// candidates' capabilities, set once (a round adds its offers).
  aggregation_input basis;
  /// The round's proposal and the participants' feedback on it.
  messages::shared<messages::channel_proposal> proposal;
  std::vector<messages::proposal_feedback> feedback;
  /// The channel's one timer (see wake_by): the generation of the newest
  /// armed, an older one is stale; its due time while it is pending.
  std::uint64_t generation = 0;
  std::optional<std::int64_t> armed_due_ms;
  /// When the collection under way times out, and when the next state check
  /// is due.
  std::optional<std::int64_t> collection_due_ms;
  std::int64_t check_due_ms = 0;
  /// The state checker (docs/protocols/channels.md, "The state checker"; recovery.hpp):
  /// when the channel entered its status or last recovered, when the collection under
  /// way began, whether it re-asked the missing in it, and recoveries so far.
  std::int64_t stuck_since_ms = 0;
  std::int64_t collection_started_ms = 0;
  bool reasked = false;
  std::int32_t recovery_attempts = 0;
  /// The reason of the recovery under way (empty: none): the next event
  /// made carries it.
  std::string recovery_reason;
};

using channel_pointer = channel_actor::stateful_pointer<channel_state>;

void problem(channel_pointer self, severity level, error_code code, std::string text,
             const std::string& agent = {}, const std::string& message_id = {}) {
  auto& st = self->state;
  auto t = level == severity::error ? messages::topic::error : messages::topic::warning;
  if (!st.with.events.wants(t))
    return;
  publish(self, st.with.events, t,
          messages::problem_event{level,
                                  code,
                                  std::move(text),
                                  st.clock->now_ms(),
                                  {},
                                  st.spec.channel_id,
                                  agent,
                                  message_id});
}

/// Marks the first event of a recovery with the reason its check found
/// (snapshot.hpp counts the attempts by it).
void stamp_recovery(channel_pointer self, messages::channel_event& x) {
  auto& st = self->state;
  if (!st.recovery_reason.empty())
    x.reason = std::exchange(st.recovery_reason, std::string{});
}

/// Whether anyone subscribed to events of `kind`. Nobody: the event is not
/// built, and a pending recovery reason goes with it (it marks the first
/// event of a recovery, and that one was not published).
bool wanted(channel_pointer self, channel_event_kind kind) {
  auto& st = self->state;
  if (st.with.events.wants(messages::topic_of(kind)))
    return true;
  st.recovery_reason.clear();
  return false;
}

messages::channel_event make_event(channel_pointer self, channel_event_kind kind) {
  const auto& st = self->state;
  messages::channel_event x;
  x.kind = kind;
  x.at_ms = st.clock->now_ms();
  x.channel_id = st.spec.channel_id;
  x.demand_id = st.spec.demand_id;
  x.round = st.round;
  stamp_recovery(self, x);
  return x;
}

/// Publishes `x` on its "towow.*" topic when anyone subscribed to it; the
/// channel's end goes to its reporter as well.
void report(channel_pointer self, messages::channel_event x) {
  const auto& st = self->state;
  if (auto after = status_after(x.kind); after && is_terminal(*after))
    send_anonymous(self, st.with.reporter, x);
  auto t = topic_of(x);
  if (st.with.events.wants(t))
    publish(self, st.with.events, t, std::move(x));
}

/// E010: an illegal transition is logged and not made
/// (docs/protocols/channels.md, "States and transitions").
bool move_to(channel_pointer self, channel_status to) {
  auto refused = transition(self->state.status, to);
  if (refused)
    problem(self, severity::error, refused->code, std::move(refused->message));
  else
    self->state.stuck_since_ms = self->state.clock->now_ms();
  return !refused;
}

/// Makes sure the channel wakes up by `due_ms`. A channel keeps one timer
/// pending, the earliest it needs: the timer service is shared by every
/// actor of the world and a delayed message cannot be cancelled, so a timer
/// per collection and per check would cost a message each and pin the
/// channel until the last came due.
void wake_by(channel_pointer self, std::int64_t due_ms) {
  auto& st = self->state;
  if (st.armed_due_ms && *st.armed_due_ms <= due_ms)
    return;
  st.armed_due_ms = due_ms;
  self->send(st.with.timers, messages::arm_timer{due_ms, ++st.generation});
}

/// The collection under way times out at `due_ms`.
void arm_at(channel_pointer self, std::int64_t due_ms) {
  self->state.collection_due_ms = due_ms;
  wake_by(self, due_ms);
}

/// The next state check is one interval from now (one per channel and
/// interval; nothing scans all channels).
void schedule_check(channel_pointer self) {
  auto& st = self->state;
  st.check_due_ms = messages::saturating_add(st.clock->now_ms(),
                                             st.spec.settings.state_check_interval_ms);
  wake_by(self, st.check_due_ms);
}

/// A collection begins: its timeout runs from now.
void arm(channel_pointer self, std::int64_t timeout_ms) {
  auto& st = self->state;
  st.collection_started_ms = st.clock->now_ms();
  st.reasked = false;
  arm_at(self, messages::saturating_add(st.collection_started_ms, timeout_ms));
}

void fail(channel_pointer self, failure_reason reason,
          caf::optional<messages::channel_tally> tally = caf::none,
          std::string suggestion = {}) {
  auto& st = self->state;
  if (!move_to(self, channel_status::failed))
    return;
  auto x = make_event(self, channel_event_kind::failed);
  x.reason = to_string(reason);
  x.tally = std::move(tally);
  if (st.proposal)
    x.proposal = *st.proposal;
  x.compromise_suggestion = std::move(suggestion);
  report(self, std::move(x));
  self->quit();
}

/// Puts the round's demand to one candidate.
void put_demand(channel_pointer self, const candidate& c) {
  const auto& st = self->state;
  self->send(c.agent, messages::demand_offer{
                          caf::actor_cast<channel_actor>(self), st.spec.channel_id,
                          st.spec.demand_id, st.spec.surface_demand,
                          st.spec.capability_tags, st.round, c.reason, c.match_score});
}

/// Puts the demand to every candidate still in.
void broadcast(channel_pointer self) {
  auto& st = self->state;
  st.invited = 0;
  st.offered = 0;
  for (std::size_t i = 0; i < st.seats.size(); ++i) {
    auto& seat = st.seats[i];
    seat.offer.reset();
    seat.invited = !seat.withdrawn;
    if (!seat.invited)
      continue;
    ++st.invited;
    put_demand(self, st.spec.candidates[i]);
  }
  if (!wanted(self, channel_event_kind::demand_broadcast))
    return;
  auto x = make_event(self, channel_event_kind::demand_broadcast);
  for (std::size_t i = 0; i < st.seats.size(); ++i)
    if (st.seats[i].invited)
      x.agents.push_back(st.spec.candidates[i].agent_id);
  report(self, std::move(x));
}

/// The seat (index in the candidates) of `agent_id`, if it is a candidate.
std::optional<std::size_t> seat_of(const channel_state& st,
                                   const std::string& agent_id) {
  for (std::size_t i = 0; i < st.spec.candidates.size(); ++i)
    if (st.spec.candidates[i].agent_id == agent_id)
      return i;
  return std::nullopt;
}

/// What every round's aggregation of `spec`'s channel starts from: the
/// demand and each candidate's capabilities (a round adds its offers).
aggregation_input basis_of(const channel_spec& spec) {
  aggregation_input x;
  x.channel_id = spec.channel_id;
  x.demand_id = spec.demand_id;
  x.objective = spec.surface_demand;
  x.capability_tags = spec.capability_tags;
  for (const auto& c : spec.candidates)
    x.capabilities[c.agent_id] = c.capabilities;
  return x;
}

/// Puts the round's proposal to the candidate in seat `i`, whose assignment
/// is `a`.
void put_proposal(channel_pointer self, std::size_t i, const messages::assignment& a) {
  const auto& st = self->state;
  self->send(st.spec.candidates[i].agent,
             messages::proposal_review{caf::actor_cast<channel_actor>(self),
                                       st.spec.channel_id, st.spec.demand_id,
                                       st.proposal, st.round,
                                       st.spec.settings.max_rounds, a});
}

void distribute(channel_pointer self, messages::channel_proposal proposal);

/// Aggregates the round's offers and puts the proposal to the participants.
void close_collection(channel_pointer self) {
  auto& st = self->state;
  if (st.offered == 0) {
    fail(self, failure_reason::timeout); // timed out with no offer at all
    return;
  }
  if (!move_to(self, channel_status::aggregating))
    return;
  auto& in = st.basis;
  in.round = st.round;
  in.invited = static_cast<std::int32_t>(st.invited);
  in.now_ms = st.clock->now_ms();
  in.offers.clear();
  // Moved: the round's offers are not read again once aggregated.
  for (auto& seat : st.seats) {
    if (seat.offer)
      in.offers.push_back(std::move(*seat.offer));
    seat.offer.reset();
    seat.participant = false;
    seat.reviewed = false;
  }
  st.offered = 0;
  if (!st.with.aggregation.used()) {
    distribute(self, aggregate(in, st.spec.settings));
    return;
  }
  // The recovery that closed the collection marks the event the proposal
  // leads to, which comes once the model answered. (A copy of the input: the
  // basis stays for the next round.)
  aggregate_by_model(self, aggregation_input{in}, st.spec.settings, st.with.aggregation,
                     st.with.events,
                     [self, reason = st.recovery_reason](messages::channel_proposal x) {
                       self->state.recovery_reason = reason;
                       distribute(self, std::move(x));
                     });
}

/// Puts the round's proposal to its participants.
void distribute(channel_pointer self, messages::channel_proposal proposal) {
  auto& st = self->state;
  st.proposal = messages::shared<messages::channel_proposal>{std::move(proposal)};
  // Who takes part, by seat (an assignment of an agent that is no candidate
  // has nobody to review it).
  std::vector<std::pair<std::size_t, const messages::assignment*>> parts;
  for (const auto& a : st.proposal->assignments)
    if (auto i = seat_of(st, a.agent_id); i && !st.seats[*i].participant) {
      st.seats[*i].participant = true;
      parts.emplace_back(*i, &a);
    }
  st.participants = parts.size();
  st.reviewed = 0;
  st.feedback.clear();
  if (parts.empty()) {
    fail(self, failure_reason::no_participants);
    return;
  }
  if (!move_to(self, channel_status::proposal_sent))
    return;
  for (const auto& [i, a] : parts)
    put_proposal(self, i, *a);
  if (wanted(self, channel_event_kind::proposal_distributed)) {
    auto x = make_event(self, channel_event_kind::proposal_distributed);
    x.proposal = *st.proposal;
    report(self, std::move(x));
  }
  if (move_to(self, channel_status::negotiating))
    arm(self, st.spec.settings.feedback_timeout_ms);
}

messages::channel_decision decision_of(channel_status next) {
  switch (next) {
  case channel_status::finalized:
    return messages::channel_decision::finalize;
  case channel_status::force_finalized:
    return messages::channel_decision::force_finalize;
  case channel_status::collecting:
    return messages::channel_decision::renegotiate;
  default:
    return messages::channel_decision::fail;
  }
}

void finalize(channel_pointer self, const feedback_evaluation& ev) {
  auto& st = self->state;
  auto forced = ev.next == channel_status::force_finalized;
  if (!move_to(self, ev.next))
    return;
  auto p = *st.proposal;
  if (forced) {
    // Who accepted is confirmed, everyone else optional
    // (docs/protocols/channels.md, "Forced finalize").
    p.is_forced = true;
    p.confirmed_participants = ev.confirmed;
    p.optional_participants = ev.optional;
    for (auto& a : p.assignments)
      a.is_confirmed = std::find(ev.confirmed.begin(), ev.confirmed.end(),
                                 a.agent_id) != ev.confirmed.end();
  }
  auto x = make_event(self, forced ? channel_event_kind::force_finalized
                                   : channel_event_kind::finalized);
  x.proposal = std::move(p);
  report(self, std::move(x));
  self->quit();
}

/// Evaluates the round's feedback
/// (docs/protocols/channels.md, "Evaluation and thresholds").
void evaluate(channel_pointer self) {
  auto& st = self->state;
  auto ev = evaluate_feedback(static_cast<std::int32_t>(st.participants), st.feedback,
                              st.round, st.spec.settings);
  messages::channel_tally tally{ev.accepts, ev.negotiates, ev.withdraws, ev.accept_rate,
                                decision_of(ev.next)};
  // Everyone withdrew: it fails at once, nothing evaluated
  // (docs/protocols/channels.md, "Evaluation and thresholds").
  if (ev.evaluated && wanted(self, channel_event_kind::feedback_evaluated)) {
    auto evaluated = make_event(self, channel_event_kind::feedback_evaluated);
    evaluated.tally = tally;
    report(self, std::move(evaluated));
  }
  // A later answer replaces a withdrawal.
  for (const auto& f : st.feedback)
    if (auto i = seat_of(st, f.agent_id))
      st.seats[*i].withdrawn = f.feedback_type == messages::feedback_type::withdraw;
  switch (ev.next) {
  case channel_status::finalized:
  case channel_status::force_finalized:
    finalize(self, ev);
    return;
  case channel_status::collecting: {
    if (!move_to(self, channel_status::collecting))
      return;
    ++st.round;
    if (wanted(self, channel_event_kind::round_started)) {
      auto x = make_event(self, channel_event_kind::round_started);
      x.reason = std::to_string(ev.accepts) + " of " + std::to_string(ev.active) +
                 " accepted: between the thresholds";
      report(self, std::move(x));
    }
    broadcast(self);
    arm(self, st.spec.settings.response_timeout_ms);
    return;
  }
  default:
    fail(self, ev.failure.value_or(failure_reason::low_acceptance), tally,
         ev.compromise_suggestion);
  }
}

/// The checks every offer and feedback passes before it counts: its sender's
/// seat, or none when it is refused (published, and nothing changes).
template <class Input>
std::optional<std::size_t> admit(channel_pointer self, const Input& x) {
  auto& st = self->state;
  if (auto invalid = validate(x); !invalid.empty()) {
    problem(self, severity::error, error_code::invalid_request, std::move(invalid),
            x.agent_id, x.message_id);
    return std::nullopt;
  }
  if (x.channel_id != st.spec.channel_id) {
    problem(self, severity::error, error_code::channel_not_found,
            "No channel " + x.channel_id + " here", x.agent_id, x.message_id);
    return std::nullopt;
  }
  auto seat = seat_of(st, x.agent_id);
  if (!seat) {
    problem(self, severity::error, error_code::not_a_party,
            x.agent_id + " is not a candidate of this channel", x.agent_id,
            x.message_id);
    return std::nullopt;
  }
  if (auto refused = st.processed.record(x.message_id)) {
    problem(self, severity::warning, refused->code, std::move(refused->message),
            x.agent_id, x.message_id);
    return std::nullopt;
  }
  return seat;
}

void late(channel_pointer self, const char* what, const std::string& agent_id,
          const std::string& message_id) {
  problem(self, severity::warning, error_code::negotiation_timeout,
          std::string{what} + " from " + agent_id + " arrived while the channel is " +
              to_string(self->state.status) + "; ignored",
          agent_id, message_id);
}

void on_offer(channel_pointer self, messages::offer_response& x) {
  auto& st = self->state;
  auto i = admit(self, x);
  if (!i)
    return;
  auto& seat = st.seats[*i];
  if (st.status != channel_status::collecting || !seat.invited) {
    late(self, "An offer", x.agent_id, x.message_id);
    return;
  }
  if (wanted(self, channel_event_kind::offer_submitted)) {
    auto submitted = make_event(self, channel_event_kind::offer_submitted);
    submitted.offer = x;
    report(self, std::move(submitted));
  }
  if (!seat.offer)
    ++st.offered;
  seat.offer = std::move(x);
  if (st.offered == st.invited)
    close_collection(self);
}

void on_feedback(channel_pointer self, messages::proposal_feedback& x) {
  auto& st = self->state;
  auto i = admit(self, x);
  if (!i)
    return;
  auto& seat = st.seats[*i];
  if (st.status != channel_status::negotiating) {
    late(self, "Feedback", x.agent_id, x.message_id);
    return;
  }
  if (!seat.participant) {
    problem(self, severity::error, error_code::not_a_party,
            x.agent_id + " is not a participant of the proposal", x.agent_id,
            x.message_id);
    return;
  }
  if (!seat.reviewed) {
    seat.reviewed = true;
    ++st.reviewed;
  }
  if (wanted(self, channel_event_kind::proposal_feedback)) {
    auto given = make_event(self, channel_event_kind::proposal_feedback);
    given.feedback = x;
    report(self, std::move(given));
  }
  st.feedback.push_back(std::move(x));
  if (st.reviewed == st.participants)
    evaluate(self);
}

/// Refuses an invalid spec (E001): the actor stops at once.
bool accept_spec(channel_pointer self) {
  auto& st = self->state;
  auto invalid = st.spec.channel_id.empty() ? std::string{"channel_id is required"}
                                            : messages::validate(st.spec.settings);
  if (invalid.empty())
    return true;
  problem(self, severity::error, error_code::invalid_request,
          "channel " + st.spec.channel_id + ": " + invalid);
  self->quit();
  return false;
}

/// Puts the demand to the candidates and starts collecting their offers.
void open_channel(channel_pointer self) {
  auto& st = self->state;
  if (st.spec.candidates.empty()) {
    fail(self, failure_reason::no_participants);
    return;
  }
  if (!move_to(self, channel_status::broadcasting))
    return;
  broadcast(self);
  if (move_to(self, channel_status::collecting))
    arm(self, st.spec.settings.response_timeout_ms);
}

/// channel.created, with the setup a restart rebuilds the channel from.
void report_created(channel_pointer self) {
  auto& st = self->state;
  auto created = make_event(self, channel_event_kind::created);
  messages::channel_setup setup{
      st.spec.surface_demand,    st.spec.capability_tags, {},
      st.spec.parent_channel_id, st.spec.depth,           st.spec.settings};
  for (const auto& c : st.spec.candidates) {
    created.agents.push_back(c.agent_id);
    setup.candidates.push_back(messages::candidate{c.agent_id, c.display_name, c.reason,
                                                   c.match_score, c.capabilities});
  }
  created.setup = std::move(setup);
  report(self, std::move(created));
}

void start(channel_pointer self) {
  if (!accept_spec(self))
    return;
  if (wanted(self, channel_event_kind::created))
    report_created(self);
  schedule_check(self);
  open_channel(self);
}

/// The channel as its state checker sees it: who the collection under way
/// still waits for, in the candidates' order.
check_input check_of(const channel_state& st, std::int64_t now_ms) {
  check_input x;
  x.status = st.status;
  x.stuck_since_ms = st.stuck_since_ms;
  x.now_ms = now_ms;
  x.reasked = st.reasked;
  x.attempts = st.recovery_attempts;
  auto collecting = st.status == channel_status::collecting;
  x.awaited = static_cast<std::int32_t>(collecting ? st.invited : st.participants);
  for (std::size_t i = 0; i < st.seats.size(); ++i) {
    const auto& seat = st.seats[i];
    auto awaited = collecting ? seat.invited : seat.participant;
    auto answered = collecting ? seat.offer.has_value() : seat.reviewed;
    if (awaited && !answered)
      x.missing.push_back(st.spec.candidates[i].agent_id);
  }
  return x;
}

/// Re-asks (docs/protocols/channels.md, "The state checker"): the demand again, in
/// the same round, to the candidates who have not answered; the invitations and
/// offers stay.
void reask(channel_pointer self, const std::vector<std::string>& recipients) {
  auto& st = self->state;
  st.reasked = true;
  for (const auto& id : recipients)
    if (auto i = seat_of(st, id))
      put_demand(self, st.spec.candidates[*i]);
  if (!wanted(self, channel_event_kind::demand_broadcast))
    return;
  auto x = make_event(self, channel_event_kind::demand_broadcast);
  x.agents = recipients;
  report(self, std::move(x));
}

/// Carries out the state checker's decision. The first event a recovery
/// leads to carries the check's reason (`reason`, e.g. stuck_in_collecting
/// on the demand.broadcast that re-asks the missing), which is also how a
/// restarted channel counts its attempts.
void recover(channel_pointer self, const recovery_decision& d) {
  auto& st = self->state;
  if (d.action == recovery_action::nothing)
    return;
  if (d.action == recovery_action::fail) {
    fail(self, failure_reason::max_recovery_attempts);
    return;
  }
  st.recovery_attempts = d.attempt;
  st.stuck_since_ms = st.clock->now_ms();
  st.recovery_reason = to_string(d.reason);
  if (d.action == recovery_action::rebroadcast)
    reask(self, d.recipients);
  else if (d.action == recovery_action::force_evaluate)
    evaluate(self);
  else
    close_collection(self);
  st.recovery_reason.clear();
}

/// The channel's timer came due: ends the collection whose time is up, runs
/// the state check when it is due, and arms the timer for what comes next.
void on_wake(channel_pointer self, const messages::timer_due& x) {
  auto& st = self->state;
  if (x.generation != st.generation)
    return; // an earlier due time armed a newer one
  st.armed_due_ms.reset();
  auto now = st.clock->now_ms();
  if (st.collection_due_ms && *st.collection_due_ms <= now) {
    st.collection_due_ms.reset();
    if (st.status == channel_status::collecting)
      close_collection(self);
    else if (st.status == channel_status::negotiating)
      evaluate(self);
  }
  if (is_terminal(st.status))
    return;
  if (st.check_due_ms <= now) {
    recover(self, check_channel(check_of(st, now), st.spec.settings));
    if (is_terminal(st.status))
      return;
    schedule_check(self);
  }
  wake_by(self, st.collection_due_ms ? std::min(*st.collection_due_ms, st.check_due_ms)
                                     : st.check_due_ms);
}

/// After a restart: asks again whom the collection under way still waits
/// for (an external member's inbox starts empty), the demand or the
/// proposal as before. Nothing is reported: the events already say it was
/// asked, and an answer given twice keeps its message id (E011).
void reask_missing(channel_pointer self) {
  auto& st = self->state;
  if (st.status == channel_status::collecting) {
    for (std::size_t i = 0; i < st.seats.size(); ++i)
      if (st.seats[i].invited && !st.seats[i].offer)
        put_demand(self, st.spec.candidates[i]);
    return;
  }
  if (st.status != channel_status::negotiating || !st.proposal)
    return;
  for (const auto& a : st.proposal->assignments)
    if (auto i = seat_of(st, a.agent_id);
        i && st.seats[*i].participant && !st.seats[*i].reviewed)
      put_proposal(self, *i, a);
}

/// Takes up a resumed collection: finishes it at once if everyone answered
/// or its deadline passed, otherwise re-arms what is left of its timeout and
/// asks the missing again.
void resume_collection(channel_pointer self, std::int64_t timeout_ms, bool complete,
                       void (*finish)(channel_pointer)) {
  auto& st = self->state;
  auto due = messages::saturating_add(st.collection_started_ms, timeout_ms);
  if (complete || due <= st.clock->now_ms()) {
    finish(self);
    return;
  }
  arm_at(self, due);
  reask_missing(self);
}

/// Continues from a snapshot without reporting again what it already did.
void resume(channel_pointer self, const channel_snapshot& x) {
  auto& st = self->state;
  if (!accept_spec(self))
    return;
  st.status = x.status;
  st.round = x.round;
  if (x.proposal)
    st.proposal = messages::shared<messages::channel_proposal>{*x.proposal};
  st.feedback = x.feedback;
  for (std::size_t i = 0; i < st.seats.size(); ++i) {
    const auto& id = st.spec.candidates[i].agent_id;
    auto& seat = st.seats[i];
    seat.withdrawn = x.withdrawn.count(id) > 0;
    seat.invited = x.invited.count(id) > 0;
    if (auto offer = x.offers.find(id); offer != x.offers.end() && seat.invited)
      seat.offer = offer->second;
    seat.participant = x.participants.count(id) > 0;
    seat.reviewed = seat.participant &&
                    std::any_of(x.feedback.begin(), x.feedback.end(),
                                [&](const auto& f) { return f.agent_id == id; });
    st.invited += seat.invited ? 1 : 0;
    st.offered += seat.offer ? 1 : 0;
    st.participants += seat.participant ? 1 : 0;
    st.reviewed += seat.reviewed ? 1 : 0;
  }
  for (const auto& id : x.processed)
    st.processed.record(id);
  st.collection_started_ms = x.collection_started_ms;
  st.stuck_since_ms = x.stuck_since_ms;
  st.reasked = x.reasked;
  st.recovery_attempts = x.recovery_attempts;
  const auto& settings = st.spec.settings;
  if (!is_terminal(st.status))
    schedule_check(self);
  switch (st.status) {
  case channel_status::created:
    open_channel(self);
    break;
  case channel_status::collecting:
    resume_collection(self, settings.response_timeout_ms, st.offered == st.invited,
                      close_collection);
    break;
  case channel_status::negotiating:
    resume_collection(self, settings.feedback_timeout_ms,
                      st.reviewed == st.participants, evaluate);
    break;
  default:
    // Terminal: nothing is left to do. (The fold yields no other status.)
    self->quit();
    return;
  }
}

channel_actor::behavior_type handlers(channel_pointer self) {
  return {
      [self](messages::offer_response& x) { on_offer(self, x); },
      [self](messages::proposal_feedback& x) { on_feedback(self, x); },
      [self](const messages::timer_due& x) { on_wake(self, x); },
  };
}

/// Takes up the channel's spec and peers, new or resumed.
void settle(channel_pointer self, channel_spec spec, peers with) {
  auto& st = self->state;
  st.spec = std::move(spec);
  st.with = std::move(with);
  st.clock.emplace(self->system());
  st.basis = basis_of(st.spec);
  st.seats.resize(st.spec.candidates.size());
  st.feedback.reserve(st.spec.candidates.size());
  st.basis.offers.reserve(st.spec.candidates.size());
  // An offer and a feedback id per candidate and round, for up to five
  // rounds (the default limit; the spec is not validated yet).
  st.processed.reserve(
      2 * st.spec.candidates.size() *
      static_cast<std::size_t>(std::clamp(st.spec.settings.max_rounds, 1, 5)));
}

channel_actor::behavior_type channel_behavior(channel_pointer self, channel_spec spec,
                                              peers with) {
  settle(self, std::move(spec), std::move(with));
  start(self);
  return handlers(self);
}

/// The spec a snapshot's channel was created with, its candidates reached at
/// `agents`.
channel_spec spec_of(const channel_snapshot& x,
                     const std::map<std::string, channel_member_actor>& agents) {
  channel_spec spec;
  spec.channel_id = x.channel_id;
  spec.demand_id = x.demand_id;
  spec.surface_demand = x.setup.surface_demand;
  spec.capability_tags = x.setup.capability_tags;
  spec.parent_channel_id = x.setup.parent_channel_id;
  spec.depth = x.setup.depth;
  spec.settings = x.setup.settings;
  for (const auto& c : x.setup.candidates) {
    auto i = agents.find(c.agent_id);
    spec.candidates.push_back({c.agent_id, c.display_name, c.reason, c.relevance_score,
                               i != agents.end() ? i->second : channel_member_actor{},
                               c.capabilities});
  }
  return spec;
}

channel_actor::behavior_type
resumed_behavior(channel_pointer self, channel_snapshot snapshot,
                 std::map<std::string, channel_member_actor> agents, peers with) {
  settle(self, spec_of(snapshot, agents), std::move(with));
  resume(self, snapshot);
  return handlers(self);
}

} // namespace

channel_actor spawn_channel(caf::actor_system& sys, channel_spec spec, peers with) {
  return sys.spawn(channel_behavior, std::move(spec), std::move(with));
}

channel_actor resume_channel(caf::actor_system& sys, channel_snapshot snapshot,
                             std::map<std::string, channel_member_actor> agents,
                             peers with) {
  return sys.spawn(resumed_behavior, std::move(snapshot), std::move(agents),
                   std::move(with));
}

} // namespace parley::actors::channel
