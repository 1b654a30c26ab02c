#pragma once

#include <memory>
#include <vector>

#include <prometheus/collectable.h>
#include <prometheus/metric_family.h>

#include "caf/fwd.hpp"

#include "actors/metrics/node_metrics.hpp"

namespace parley::service {

/// `parley serve`'s metrics as Prometheus families (docs/metrics.md): the
/// instruments of `node_metrics` and what CAF 0.17 tells of the actor
/// system. Collect reads atomics only: it never waits for an actor and
/// takes no lock the runtime takes, so a scrape is bounded however busy the
/// node is, and costs the same at 10 or 100k open negotiations (the series
/// are per route, outcome and topic, never per negotiation).
///
/// CAF 0.17 exposes the number of running actors (an atomic in the actor
/// registry) and the number of scheduler workers. It does not expose the
/// workers' job queue lengths (their queues have no size, only `empty()`
/// under a spin lock) nor actors' mailbox sizes (there is no list of all
/// actors to ask): neither is exported.
class metrics_collector : public prometheus::Collectable {
public:
  /// `sys` may be null (no actor-system families); it must outlive this.
  metrics_collector(std::shared_ptr<const actors::metrics::node_metrics> metrics,
                    caf::actor_system* sys);

  std::vector<prometheus::MetricFamily> Collect() const override;

private:
  std::shared_ptr<const actors::metrics::node_metrics> metrics_;
  caf::actor_system* sys_;
};

} // namespace parley::service
