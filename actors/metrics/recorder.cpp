#include "actors/metrics/recorder.hpp"

#include <cmath>

#include "messages/channel_event.hpp"
#include "messages/events.hpp"

namespace parley::actors::metrics {

using messages::topic;
using messages::topic_set;

topic_set recorded_topics() {
  return topic_set::of(topic::negotiation_started) |
         topic_set::of(topic::negotiation_agreed) |
         topic_set::of(topic::negotiation_rejected) |
         topic_set::of(topic::negotiation_expired) | topic_set::of(topic::error) |
         topic_set::of(topic::warning) | topic_set::of(topic::ballot_proposed) |
         topic_set::of(topic::ballot_result) | topic_set::of(topic::auction_result) |
         topic_set::of(topic::demand_understood) |
         topic_set::of(topic::channel_created) |
         topic_set::of(topic::proposal_finalized) |
         topic_set::of(topic::force_finalized) | topic_set::of(topic::channel_failed);
}

namespace {

/// `x` in thousandths, rounded: how the score histograms count.
std::int64_t milli(double x) {
  return std::llround(x * 1000.0);
}

} // namespace

void recorder::count(topic x) noexcept {
  to_->events[static_cast<std::size_t>(x)].add();
}

void recorder::on(const messages::negotiation_event& x) {
  using kind = messages::negotiation_event_kind;
  count(messages::topic_of(x));
  auto& m = to_->negotiations;
  negotiation_outcome outcome;
  switch (x.kind) {
  case kind::started:
    m.started.add();
    return;
  case kind::agreed:
    outcome = negotiation_outcome::agreed;
    break;
  case kind::rejected:
    outcome = negotiation_outcome::rejected;
    break;
  case kind::expired:
    outcome = negotiation_outcome::expired;
    break;
  default:
    return;
  }
  m.ended[static_cast<std::size_t>(outcome)].add();
  if (x.record) {
    m.rounds.observe(static_cast<std::int64_t>(x.record->rounds.size()));
    m.duration_ms.observe(x.at_ms() - x.record->created_at);
    if (const auto& score = x.record->score) {
      m.utility_milli[0].observe(milli(score->utilities.initiator));
      m.utility_milli[1].observe(milli(score->utilities.responder));
      if (score->nash_distance)
        m.nash_distance_milli.observe(milli(*score->nash_distance));
    }
  }
}

void recorder::on(const messages::channel_event& x) {
  using kind = messages::channel_event_kind;
  count(messages::topic_of(x));
  auto& m = to_->channels;
  channel_outcome outcome;
  switch (x.kind) {
  case kind::demand_understood:
    m.demands.add();
    return;
  case kind::created:
    m.created.add();
    channel_start_ms_[x.channel_id] = x.at_ms;
    return;
  case kind::finalized:
    outcome = channel_outcome::finalized;
    break;
  case kind::force_finalized:
    outcome = channel_outcome::force_finalized;
    break;
  case kind::failed:
    outcome = channel_outcome::failed;
    break;
  default:
    return;
  }
  m.ended[static_cast<std::size_t>(outcome)].add();
  m.rounds.observe(x.round);
  auto i = channel_start_ms_.find(x.channel_id);
  if (i != channel_start_ms_.end()) {
    m.duration_ms.observe(x.at_ms - i->second);
    channel_start_ms_.erase(i);
  }
}

} // namespace parley::actors::metrics
