#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "actors/metrics/node_metrics.hpp"
#include "messages/fwd.hpp"
#include "messages/topic.hpp"

namespace parley::actors::metrics {

/// The topics the metrics actor subscribes to: the negotiations' start and
/// ends (not `negotiation.updated`: the rounds come from the final record),
/// errors and warnings, ballots' and auctions' proposals and results (not
/// each vote or bid), demands, and channels' creation and ends. Only these
/// are counted in `node_metrics::events`.
messages::topic_set recorded_topics();

/// Turns events into instrument updates: the metrics actor's pure part.
/// Keeps only the creation time of the channels open now (few; the
/// negotiations' durations come from their records).
class recorder {
public:
  explicit recorder(std::shared_ptr<node_metrics> to) : to_(std::move(to)) {}

  void on(const messages::negotiation_event& x);

  void on(const messages::channel_event& x);

  /// Counts an event of topic `x` (any kind).
  void count(messages::topic x) noexcept;

  /// Channels whose creation this recorder saw and whose end it did not.
  std::size_t tracked_channels() const noexcept { return channel_start_ms_.size(); }

private:
  std::shared_ptr<node_metrics> to_;
  std::unordered_map<std::string, std::int64_t> channel_start_ms_;
};

} // namespace parley::actors::metrics
