#include "actors/channel/rules.hpp"

#include <algorithm>
#include <cmath>

#include "messages/channel_event.hpp"
#include "messages/enum_names.hpp"

namespace parley::actors::channel {

using messages::error_code;
using messages::feedback_type;

namespace {

constexpr const char* status_names[] = {
    "created",     "broadcasting", "collecting",      "aggregating", "proposal_sent",
    "negotiating", "finalized",    "force_finalized", "failed",
};
constexpr const char* failure_names[] = {"low_acceptance", "no_participants",
                                         "max_rounds_exceeded", "timeout",
                                         "max_recovery_attempts"};

constexpr unsigned bit(channel_status x) {
  return 1u << static_cast<unsigned>(x);
}

/// The transition table (docs/protocols/channels.md, "States and transitions"), one bit
/// per allowed target, indexed by the status left.
constexpr unsigned valid_targets[] = {
    // created
    bit(channel_status::broadcasting) | bit(channel_status::failed),
    // broadcasting
    bit(channel_status::collecting) | bit(channel_status::failed),
    // collecting: failed when nobody answered
    bit(channel_status::aggregating) | bit(channel_status::failed),
    // aggregating
    bit(channel_status::proposal_sent) | bit(channel_status::failed),
    // proposal_sent
    bit(channel_status::negotiating) | bit(channel_status::failed),
    // negotiating: collecting starts a new round
    bit(channel_status::finalized) | bit(channel_status::force_finalized) |
        bit(channel_status::collecting) | bit(channel_status::failed),
    // finalized, force_finalized, failed: terminal
    0,
    0,
    0,
};

static_assert(std::size(valid_targets) == std::size(status_names));

int percent(double rate) {
  return static_cast<int>(std::lround(rate * 100.0));
}

/// A compromise suggestion when too few accept
/// (docs/protocols/channels.md, "Failure reasons"); the original specification does not
/// say how it is made: this one lists the adjustments the negotiating participants
/// asked for.
std::string
compromise_suggestion(const feedback_evaluation& x,
                      const std::vector<const messages::proposal_feedback*>& latest,
                      double threshold_low) {
  auto text = "Only " + std::to_string(x.accepts) + " of " + std::to_string(x.active) +
              " active participants accepted (" +
              std::to_string(percent(x.accept_rate)) + "%, below " +
              std::to_string(percent(threshold_low)) + "%).";
  std::string asked;
  for (const auto* f : latest) {
    if (f->feedback_type != feedback_type::negotiate || f->adjustment_request.empty())
      continue;
    asked += (asked.empty() ? " A compromise would address: " : "; ") + f->agent_id +
             ": " + f->adjustment_request;
  }
  return text + (asked.empty() ? " Nobody asked for an adjustment." : asked + ".");
}

} // namespace

std::optional<channel_status> status_after(messages::channel_event_kind k) {
  using messages::channel_event_kind;
  switch (k) {
  case channel_event_kind::created:
    return channel_status::created;
  case channel_event_kind::demand_broadcast:
  case channel_event_kind::offer_submitted:
  case channel_event_kind::round_started:
    return channel_status::collecting;
  case channel_event_kind::proposal_distributed:
  case channel_event_kind::proposal_feedback:
    return channel_status::negotiating;
  case channel_event_kind::finalized:
    return channel_status::finalized;
  case channel_event_kind::force_finalized:
    return channel_status::force_finalized;
  case channel_event_kind::failed:
    return channel_status::failed;
  case channel_event_kind::demand_understood:
  case channel_event_kind::filter_completed:
  case channel_event_kind::feedback_evaluated:
    break;
  }
  return std::nullopt;
}

bool is_terminal(channel_status x) {
  return x == channel_status::finalized || x == channel_status::force_finalized ||
         x == channel_status::failed;
}

bool is_valid_transition(channel_status from, channel_status to) {
  auto i = static_cast<std::size_t>(from);
  return i < std::size(valid_targets) && (valid_targets[i] & bit(to)) != 0;
}

std::optional<refusal> transition(channel_status& status, channel_status to) {
  if (!is_valid_transition(status, to))
    return refusal{error_code::illegal_transition,
                   "Illegal channel transition " + to_string(status) + " -> " +
                       to_string(to) + "; status unchanged"};
  status = to;
  return std::nullopt;
}

std::optional<refusal> processed_messages::record(const std::string& message_id) {
  if (message_id.empty())
    return refusal{error_code::invalid_request, "message_id is required"};
  if (!ids_.insert(message_id).second)
    return refusal{error_code::duplicate_message,
                   "Duplicate message " + message_id + " ignored"};
  return std::nullopt;
}

namespace {

/// evaluate_feedback on the answers of `expected` participants (pointers:
/// the feedback is only read).
feedback_evaluation
evaluate_answers(std::int32_t expected,
                 std::vector<const messages::proposal_feedback*> latest,
                 std::int32_t round, const messages::channel_settings& settings) {
  // Feedback is kept by agent
  // (docs/protocols/channels.md, "Evaluation and thresholds"): a later one replaces the
  // earlier. Ordered by agent, not in the order the answers came: in real time that
  // order is the scheduler's, and the lists and suggestion below would differ run to
  // run. Stable: of one agent's answers, the last stays last and wins below.
  std::stable_sort(latest.begin(), latest.end(), [](const auto* a, const auto* b) {
    return a->agent_id < b->agent_id;
  });
  // Unique from the back keeps each agent's last answer, packed at the end.
  latest.erase(
      latest.begin(),
      std::unique(latest.rbegin(), latest.rend(), [](const auto* a, const auto* b) {
        return a->agent_id == b->agent_id;
      }).base());
  feedback_evaluation x;
  for (const auto* f : latest) {
    switch (f->feedback_type) {
    case feedback_type::accept:
      ++x.accepts;
      break;
    case feedback_type::negotiate:
      ++x.negotiates;
      break;
    case feedback_type::withdraw:
      ++x.withdraws;
      break;
    }
  }
  x.active = expected - x.withdraws;
  if (x.active == 0) {
    x.next = channel_status::failed;
    x.failure = failure_reason::no_participants;
    x.evaluated = false;
    return x;
  }
  x.accept_rate = static_cast<double>(x.accepts) / x.active;
  if (x.accept_rate >= settings.accept_threshold_high) {
    x.next = channel_status::finalized;
  } else if (x.accept_rate < settings.accept_threshold_low) {
    x.next = channel_status::failed;
    x.failure = failure_reason::low_acceptance;
    x.compromise_suggestion =
        compromise_suggestion(x, latest, settings.accept_threshold_low);
  } else if (round < settings.max_rounds) {
    x.next = channel_status::collecting;
  } else {
    x.next = channel_status::force_finalized;
    for (const auto* f : latest)
      (f->feedback_type == feedback_type::accept ? x.confirmed : x.optional)
          .push_back(f->agent_id);
  }
  return x;
}

} // namespace

feedback_evaluation
evaluate_feedback(const std::set<std::string>& expected,
                  const std::vector<messages::proposal_feedback>& feedback,
                  std::int32_t round, const messages::channel_settings& settings) {
  std::vector<const messages::proposal_feedback*> latest;
  latest.reserve(feedback.size());
  for (const auto& f : feedback)
    if (expected.count(f.agent_id) > 0)
      latest.push_back(&f);
  return evaluate_answers(static_cast<std::int32_t>(expected.size()), std::move(latest),
                          round, settings);
}

feedback_evaluation
evaluate_feedback(std::int32_t expected,
                  const std::vector<messages::proposal_feedback>& feedback,
                  std::int32_t round, const messages::channel_settings& settings) {
  std::vector<const messages::proposal_feedback*> latest;
  latest.reserve(feedback.size());
  for (const auto& f : feedback)
    latest.push_back(&f);
  return evaluate_answers(expected, std::move(latest), round, settings);
}

subchannel_plan plan_subchannels(channel_status status, std::int32_t depth,
                                 std::int32_t already_open,
                                 const messages::channel_proposal& proposal,
                                 const messages::channel_settings& settings) {
  subchannel_plan plan;
  auto finalized =
      status == channel_status::finalized || status == channel_status::force_finalized;
  auto room = finalized && depth + 1 <= settings.max_depth
                  ? std::max(settings.max_subchannels - already_open, 0)
                  : 0;
  for (const auto& g : proposal.gaps)
    (static_cast<std::int32_t>(plan.open.size()) < room ? plan.open : plan.noted)
        .push_back(g);
  return plan;
}

PARLEY_ENUM_NAMES(channel_status, status_names)
PARLEY_ENUM_NAMES(failure_reason, failure_names)

} // namespace parley::actors::channel
