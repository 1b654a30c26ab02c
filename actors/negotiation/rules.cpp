#include "actors/negotiation/rules.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "actors/negotiation/replay.hpp"
#include "messages/time_limits.hpp"

namespace parley::actors::negotiation {

using messages::error_code;
using messages::negotiation_event_kind;
using messages::negotiation_status;
using messages::round_action;

namespace {

party other(party x) {
  return x == party::initiator ? party::responder : party::initiator;
}

/// "30 seconds", "2 minutes", "1500 ms": the expiry reasons' wording for durations
/// (docs/protocols/bilateral.md, "Timeouts").
std::string human_duration(std::int64_t ms) {
  if (ms >= 60000 && ms % 60000 == 0) {
    auto n = ms / 60000;
    return std::to_string(n) + (n == 1 ? " minute" : " minutes");
  }
  if (ms % 1000 == 0) {
    auto n = ms / 1000;
    return std::to_string(n) + (n == 1 ? " second" : " seconds");
  }
  return std::to_string(ms) + " ms";
}

problem make_problem(messages::severity sev, error_code code, std::string text) {
  return problem{sev, code, std::move(text)};
}

} // namespace

std::string round_timeout_reason(std::int64_t round_timeout_ms) {
  return "Round timeout — no response within " + human_duration(round_timeout_ms);
}

std::string total_timeout_reason(std::int64_t total_timeout_ms) {
  return "Total timeout — negotiation exceeded " + human_duration(total_timeout_ms);
}

std::string round_limit_reason(std::int32_t max_rounds) {
  return "Round limit reached — " + std::to_string(max_rounds) +
         (max_rounds == 1 ? " round" : " rounds");
}

double convergence_score(std::int64_t a, std::int64_t b) {
  if (a <= 0 || b <= 0)
    return 0.0;
  auto high = static_cast<double>(std::max(a, b));
  auto gap = static_cast<double>(a > b ? a - b : b - a);
  return std::round((1.0 - gap / high) * 100.0) / 100.0;
}

std::string rules::validate_opening(const opening& x) {
  if (x.id.empty())
    return "negotiation id is empty";
  if (x.initiator.empty() || x.responder.empty())
    return "initiator and responder are required";
  if (x.initiator == x.responder)
    return "initiator and responder must be different agents, both are \"" +
           x.initiator + "\"";
  if (auto why = messages::validate(x.proposal); !why.empty())
    return "proposal: " + why;
  if (auto why = messages::validate(x.settings); !why.empty())
    return why;
  return {};
}

rules::rules(opening x, std::int64_t now_ms, effects& out,
             std::uint64_t first_generation)
    : id_(x.id), room_id_(x.room_id), initiator_(x.initiator), responder_(x.responder),
      status_(negotiation_status::proposed), timer_generation_(first_generation) {
  auto& r = record_;
  r.id = std::move(x.id);
  r.room_id = std::move(x.room_id);
  r.intent_id = std::move(x.intent_id);
  r.status = negotiation_status::proposed;
  r.initiator = std::move(x.initiator);
  r.responder = std::move(x.responder);
  r.max_rounds = x.settings.max_rounds;
  r.round_timeout_ms = x.settings.round_timeout_ms;
  r.total_timeout_ms = x.settings.total_timeout_ms;
  r.incentive_split = x.settings.incentive_split;
  r.created_at = now_ms;
  r.updated_at = now_ms;
  r.expires_at = messages::saturating_add(now_ms, x.settings.total_timeout_ms);
  initiator_amount_ = x.proposal.amount;
  r.current_proposal = x.proposal;
  // Most negotiations end within four rounds; more grow the vector.
  r.rounds.reserve(
      std::min<std::size_t>(static_cast<std::size_t>(r.max_rounds) + 1, 4));
  r.rounds.push_back(messages::negotiation_round{1,
                                                 r.initiator,
                                                 std::move(x.proposal),
                                                 round_action::propose,
                                                 {},
                                                 now_ms,
                                                 std::move(x.message_id)});
  round_deadline_ms_ = messages::saturating_add(now_ms, r.round_timeout_ms);
  total_deadline_ms_ = r.expires_at;
  to_move_ = party::responder;
  out.event = negotiation_event_kind::started;
  out.relay_to = party::responder;
  schedule(out);
}

rules rules::resume(messages::negotiation_record record, std::int64_t now_ms,
                    effects& out, std::uint64_t first_generation) {
  rules x;
  x.id_ = record.id;
  x.room_id_ = record.room_id;
  x.initiator_ = record.initiator;
  x.responder_ = record.responder;
  x.status_ = record.status;
  x.timer_generation_ = first_generation;
  auto latest_ms = record.created_at;
  for (const auto& round : record.rounds) {
    auto from = round.from_agent == x.initiator_ ? party::initiator : party::responder;
    if (round.action == round_action::propose || round.action == round_action::counter)
      (from == party::initiator ? x.initiator_amount_ : x.responder_amount_) =
          round.proposal.amount;
    x.to_move_ = other(from);
    latest_ms = round.timestamp;
  }
  x.round_deadline_ms_ = messages::saturating_add(latest_ms, record.round_timeout_ms);
  x.total_deadline_ms_ = record.expires_at;
  x.record_ = std::move(record);
  // As if the timer of the nearer deadline fired now: it expires the
  // negotiation if that deadline passed, or arms the timer for it.
  x.timer_due_ms_ = x.next_deadline();
  x.on_timer(x.timer_generation_, now_ms, out);
  if (!x.terminal())
    out.relay_to = x.to_move_;
  return x;
}

const messages::negotiation_round* rules::latest_offer() const {
  const auto& rounds = record_.rounds;
  auto i = std::find_if(rounds.rbegin(), rounds.rend(), [](const auto& round) {
    return round.action == round_action::propose ||
           round.action == round_action::counter;
  });
  return i != rounds.rend() ? &*i : nullptr;
}

messages::negotiation_record rules::take_record() {
  return std::move(record_);
}

template <class AgentMessage>
std::optional<party> rules::admit(const AgentMessage& x, effects& out) {
  using messages::severity;
  const auto& message_id = x.message_id;
  const auto& from = x.from_agent;
  if (x.negotiation_id != id_) {
    out.refused = make_problem(severity::warning, error_code::negotiation_not_found,
                               "Message for unknown negotiation \"" + x.negotiation_id +
                                   "\" dropped");
    return std::nullopt;
  }
  if (terminal()) {
    out.refused = make_problem(severity::warning, error_code::negotiation_not_active,
                               "Received message for non-active negotiation " + id_ +
                                   " (" + messages::to_string(status_) + "); dropped");
    return std::nullopt;
  }
  if (message_id.empty()) {
    out.refused = make_problem(severity::error, error_code::invalid_request,
                               "message_id is required");
    return std::nullopt;
  }
  if (const auto* first = round_of(record_, message_id)) {
    auto differs = differences(fingerprint_of(*first), fingerprint_of(x));
    out.refused = differs.empty()
                      ? make_problem(severity::warning, error_code::duplicate_message,
                                     "Duplicate message " + message_id + " ignored")
                      : make_problem(severity::error, error_code::message_id_reused,
                                     reuse_text(message_id, differs));
    return std::nullopt;
  }
  party sender;
  if (from == initiator_) {
    sender = party::initiator;
  } else if (from == responder_) {
    sender = party::responder;
  } else {
    out.refused = make_problem(severity::error, error_code::not_a_party,
                               "\"" + from + "\" is not a party to negotiation " + id_);
    return std::nullopt;
  }
  if (sender != to_move_) {
    out.refused = make_problem(severity::error, error_code::out_of_turn,
                               "\"" + from + "\" acted out of turn: it is " +
                                   agent_of(to_move_) + "'s move");
    return std::nullopt;
  }
  return sender;
}

void rules::on_message(const messages::agent_proposal& x, std::int64_t now_ms,
                       effects& out) {
  // A proposal mid-negotiation is handled as a counter
  // (docs/protocols/bilateral.md, "Counter").
  if (auto from = admit(x, out))
    counter(x.message_id, *from, x.proposal, {}, now_ms, out);
}

void rules::on_message(const messages::agent_counter& x, std::int64_t now_ms,
                       effects& out) {
  if (auto from = admit(x, out))
    counter(x.message_id, *from, x.proposal, x.reason, now_ms, out);
}

void rules::counter(const std::string& message_id, party from,
                    const messages::proposal& proposal, const std::string& reason,
                    std::int64_t now_ms, effects& out) {
  if (auto why = messages::validate(proposal); !why.empty()) {
    out.refused = make_problem(messages::severity::error, error_code::invalid_proposal,
                               "Counter refused: " + why);
    return;
  }
  auto& r = record_;
  if (static_cast<std::int64_t>(r.rounds.size()) >= r.max_rounds) {
    // Kept as the last round, so that its message id is recognised after
    // the end and after a restart, but not taken up: the current proposal
    // and the convergence stay those of the round before.
    r.rounds.push_back(messages::negotiation_round{
        static_cast<std::int32_t>(r.rounds.size() + 1), agent_of(from), proposal,
        round_action::counter, reason, now_ms, message_id});
    expire(round_limit_reason(r.max_rounds), now_ms, out);
    return;
  }
  (from == party::initiator ? initiator_amount_ : responder_amount_) = proposal.amount;
  messages::append_counter(
      r,
      messages::negotiation_round{static_cast<std::int32_t>(r.rounds.size() + 1),
                                  agent_of(from), proposal, round_action::counter,
                                  reason, now_ms, message_id},
      convergence());
  status_ = negotiation_status::countering;
  to_move_ = other(from);
  round_deadline_ms_ = messages::saturating_add(now_ms, r.round_timeout_ms);
  out.event = negotiation_event_kind::updated;
  out.relay_to = other(from);
  schedule(out);
}

void rules::on_message(const messages::agent_accept& x, std::int64_t now_ms,
                       effects& out) {
  auto from = admit(x, out);
  if (!from)
    return;
  auto& r = record_;
  r.rounds.push_back(
      messages::negotiation_round{static_cast<std::int32_t>(r.rounds.size() + 1),
                                  agent_of(*from),
                                  r.current_proposal,
                                  round_action::accept,
                                  {},
                                  now_ms,
                                  x.message_id});
  r.final_proposal = r.current_proposal;
  r.convergence_score = 1.0;
  finish(negotiation_status::accepted, {}, now_ms);
  out.event = negotiation_event_kind::agreed;
  out.relay_to = other(*from);
}

void rules::on_message(const messages::agent_reject& x, std::int64_t now_ms,
                       effects& out) {
  auto from = admit(x, out);
  if (!from)
    return;
  auto& r = record_;
  r.rounds.push_back(messages::negotiation_round{
      static_cast<std::int32_t>(r.rounds.size() + 1), agent_of(*from),
      r.current_proposal, round_action::reject, x.reason, now_ms, x.message_id});
  finish(negotiation_status::rejected, x.reason, now_ms);
  out.event = negotiation_event_kind::rejected;
  out.relay_to = other(*from);
}

void rules::on_timer(std::uint64_t generation, std::int64_t now_ms, effects& out) {
  if (generation != timer_generation_ || !timer_due_ms_)
    return; // stale: a newer timer replaced this one
  timer_due_ms_.reset();
  if (terminal())
    return;
  auto& r = record_;
  // The nearer deadline decides; on a tie the round timeout is the cause.
  if (round_deadline_ms_ <= total_deadline_ms_ && now_ms >= round_deadline_ms_)
    expire(round_timeout_reason(r.round_timeout_ms), now_ms, out);
  else if (now_ms >= total_deadline_ms_)
    expire(total_timeout_reason(r.total_timeout_ms), now_ms, out);
  else if (now_ms >= round_deadline_ms_)
    expire(round_timeout_reason(r.round_timeout_ms), now_ms, out);
  else
    schedule(out); // fired early: the round deadline moved on since
}

void rules::expire(const std::string& reason, std::int64_t now_ms, effects& out) {
  finish(negotiation_status::expired, reason, now_ms);
  out.event = negotiation_event_kind::expired;
  out.notify_parties = true;
}

void rules::finish(negotiation_status status, std::string reason, std::int64_t now_ms) {
  status_ = record_.status = status;
  record_.status_reason = std::move(reason);
  record_.updated_at = now_ms;
}

double rules::convergence() const {
  if (initiator_amount_ && responder_amount_)
    return convergence_score(*initiator_amount_, *responder_amount_);
  return record_.convergence_score;
}

messages::answer_terms rules::terms_for(party x) const {
  messages::answer_terms terms;
  terms.round = static_cast<std::int32_t>(record_.rounds.size());
  const auto& amount = x == party::initiator ? initiator_amount_ : responder_amount_;
  if (amount)
    terms.my_last_amount = *amount;
  terms.answer_by_ms = next_deadline();
  // The offers so far (docs/protocols/bilateral.md, "Offers and answer
  // terms"): a handful of rounds, counted afresh without allocating, since
  // every offer handed on asks for them.
  const auto& mine = agent_of(x);
  const auto& rounds = record_.rounds;
  auto is_offer = [](const messages::negotiation_round& r) {
    return r.action == round_action::propose || r.action == round_action::counter;
  };
  const messages::proposal* their_first = nullptr;
  std::int32_t their_offers = 0;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    if (!is_offer(rounds[i]))
      continue;
    const bool by_me = rounds[i].from_agent == mine;
    if (!by_me && ++their_offers == 1)
      their_first = &rounds[i].proposal;
    auto repeated =
        std::any_of(rounds.begin(), rounds.begin() + static_cast<std::ptrdiff_t>(i),
                    [&](const messages::negotiation_round& earlier) {
                      return is_offer(earlier) &&
                             earlier.from_agent == rounds[i].from_agent &&
                             earlier.proposal == rounds[i].proposal;
                    });
    if (!repeated)
      ++(by_me ? terms.my_distinct_offers : terms.their_distinct_offers);
  }
  if (their_offers >= 2)
    terms.their_first = *their_first;
  return terms;
}

std::int64_t rules::next_deadline() const {
  return std::min(round_deadline_ms_, total_deadline_ms_);
}

void rules::schedule(effects& out) {
  auto due = next_deadline();
  if (timer_due_ms_ && *timer_due_ms_ <= due)
    return; // the pending timer fires first and re-arms then
  timer_due_ms_ = due;
  out.arm = timer_request{due, ++timer_generation_};
}

} // namespace parley::actors::negotiation
