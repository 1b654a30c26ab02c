#include "actors/channel/snapshot.hpp"

#include "actors/channel/recovery.hpp"

namespace parley::actors::channel {

using messages::channel_event_kind;

namespace {

/// A collection (of offers or of feedback) begins.
void begin_collection(channel_snapshot& x, channel_status status, std::int64_t at_ms) {
  x.status = status;
  x.collection_started_ms = at_ms;
  x.stuck_since_ms = at_ms;
  x.reasked = false;
}

void note_recovery(channel_snapshot& x, const messages::channel_event& e) {
  if (!is_recovery(e))
    return;
  ++x.recovery_attempts;
  x.stuck_since_ms = e.at_ms;
}

} // namespace

bool is_recovery(const messages::channel_event& e) {
  stuck_reason reason = stuck_reason::healthy;
  return from_string(e.reason, reason) && reason != stuck_reason::healthy;
}

void apply(channel_snapshot& x, const messages::channel_event& e) {
  switch (e.kind) {
  case channel_event_kind::created:
    x = channel_snapshot{};
    x.channel_id = e.channel_id;
    x.demand_id = e.demand_id;
    if (e.setup)
      x.setup = *e.setup;
    x.round = e.round;
    x.stuck_since_ms = e.at_ms;
    return;
  case channel_event_kind::demand_broadcast:
    if (is_recovery(e)) {
      // Re-asked the missing: the round's invitations and offers stay.
      x.reasked = true;
      note_recovery(x, e);
      return;
    }
    begin_collection(x, channel_status::collecting, e.at_ms);
    x.round = e.round;
    x.invited = {e.agents.begin(), e.agents.end()};
    x.offers.clear();
    return;
  case channel_event_kind::offer_submitted:
    if (e.offer) {
      x.offers[e.offer->agent_id] = *e.offer;
      x.processed.insert(e.offer->message_id);
    }
    return;
  case channel_event_kind::proposal_distributed:
    begin_collection(x, channel_status::negotiating, e.at_ms);
    note_recovery(x, e);
    x.proposal = e.proposal ? std::optional{*e.proposal} : std::nullopt;
    x.participants.clear();
    if (x.proposal)
      for (const auto& a : x.proposal->assignments)
        x.participants.insert(a.agent_id);
    x.feedback.clear();
    return;
  case channel_event_kind::proposal_feedback:
    if (e.feedback) {
      x.feedback.push_back(*e.feedback);
      x.processed.insert(e.feedback->message_id);
    }
    return;
  case channel_event_kind::feedback_evaluated:
    note_recovery(x, e);
    for (const auto& f : x.feedback) {
      if (f.feedback_type == messages::feedback_type::withdraw)
        x.withdrawn.insert(f.agent_id);
      else
        x.withdrawn.erase(f.agent_id);
    }
    return;
  case channel_event_kind::round_started:
    x.status = channel_status::collecting;
    x.round = e.round;
    return;
  case channel_event_kind::finalized:
  case channel_event_kind::force_finalized:
  case channel_event_kind::failed:
    x.status = *status_after(e.kind);
    if (e.proposal)
      x.proposal = *e.proposal;
    return;
  default:
    return;
  }
}

std::optional<channel_snapshot>
fold(const std::vector<messages::channel_event>& events) {
  if (events.empty() || events.front().kind != channel_event_kind::created ||
      !events.front().setup)
    return std::nullopt;
  channel_snapshot x;
  for (const auto& e : events)
    apply(x, e);
  return x;
}

} // namespace parley::actors::channel
