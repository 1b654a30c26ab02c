#include "service/metrics_collector.hpp"

#include <limits>
#include <string>
#include <utility>

#include "caf/actor_registry.hpp"
#include "caf/actor_system.hpp"
#include "caf/scheduler/abstract_coordinator.hpp"

#include "actors/metrics/recorder.hpp"
#include "messages/topic.hpp"
#include "service/route_table.hpp"

namespace parley::service {

namespace {

using actors::metrics::histogram;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

/// Families in the order they are added.
class families {
public:
  /// Starts a family: `name` (with the "parley_" prefix), help and type.
  families& family(const std::string& name, std::string help, MetricType type) {
    out_.push_back({"parley_" + name, std::move(help), type, {}});
    return *this;
  }

  /// A sample of the last family, with `labels`.
  families& value(double x, std::vector<ClientMetric::Label> labels = {}) {
    ClientMetric m;
    m.label = std::move(labels);
    if (out_.back().type == MetricType::Counter)
      m.counter.value = x;
    else
      m.gauge.value = x;
    out_.back().metric.push_back(std::move(m));
    return *this;
  }

  /// A histogram sample of the last family; observations are divided by
  /// `unit` (1e6 turns microseconds into seconds).
  families& hist(const histogram& h, double unit,
                 std::vector<ClientMetric::Label> labels = {}) {
    auto snap = h.read();
    ClientMetric m;
    m.label = std::move(labels);
    m.histogram.sample_count = snap.count();
    m.histogram.sample_sum = static_cast<double>(snap.sum) / unit;
    const auto& bounds = h.bounds();
    for (std::size_t i = 0; i < bounds.size(); ++i)
      m.histogram.bucket.push_back(
          {snap.cumulative[i], static_cast<double>(bounds[i]) / unit});
    m.histogram.bucket.push_back(
        {snap.count(), std::numeric_limits<double>::infinity()});
    out_.back().metric.push_back(std::move(m));
    return *this;
  }

  std::vector<MetricFamily> take() { return std::move(out_); }

private:
  std::vector<MetricFamily> out_;
};

double num(std::uint64_t x) {
  return static_cast<double>(x);
}

/// What negotiations and channels share: `<kind>s_ended_total` by `label`
/// (the outcome's name_of), `<kind>s_open`, `<kind>_rounds` and
/// `<kind>_duration_seconds`.
template <class Outcome, class Metrics>
void ends(families& f, const std::string& kind, const char* label, const Metrics& m,
          const char* rounds_help, const char* duration_help) {
  f.family(kind + "s_ended_total", kind + "s ended, by " + label, MetricType::Counter);
  for (std::size_t i = 0; i < m.ended.size(); ++i)
    f.value(num(m.ended[i].value()), {{label, name_of(static_cast<Outcome>(i))}});
  f.family(kind + "s_open", kind + "s started or resumed and not ended",
           MetricType::Gauge)
      .value(static_cast<double>(m.open()));
  f.family(kind + "_rounds", rounds_help, MetricType::Histogram).hist(m.rounds, 1);
  f.family(kind + "_duration_seconds", duration_help, MetricType::Histogram)
      .hist(m.duration_ms, 1e3);
}

void negotiations(families& f, const actors::metrics::negotiation_metrics& m) {
  f.family("negotiations_started_total", "Negotiations started", MetricType::Counter)
      .value(num(m.started.value()));
  f.family("negotiations_resumed_total",
           "Open negotiations re-spawned from the store at start", MetricType::Counter)
      .value(num(m.resumed.value()));
  ends<actors::metrics::negotiation_outcome>(
      f, "negotiation", "outcome", m, "Rounds of an ended negotiation",
      "From a negotiation's creation to its end");
  f.family("negotiation_utility",
           "A scored negotiation's utility for each party (docs/outcomes.md)",
           MetricType::Histogram)
      .hist(m.utility_milli[0], 1e3, {{"party", "initiator"}})
      .hist(m.utility_milli[1], 1e3, {{"party", "responder"}});
  f.family("negotiation_nash_distance",
           "A scored negotiation's distance to the Nash point in utility space",
           MetricType::Histogram)
      .hist(m.nash_distance_milli, 1e3);
}

void channels(families& f, const actors::metrics::channel_metrics& m) {
  f.family("demands_total", "Demands understood by the coordinator",
           MetricType::Counter)
      .value(num(m.demands.value()));
  f.family("channels_created_total", "Channels created (sub-channels included)",
           MetricType::Counter)
      .value(num(m.created.value()));
  f.family("channels_resumed_total", "Open channels resumed from the store at start",
           MetricType::Counter)
      .value(num(m.resumed.value()));
  ends<actors::metrics::channel_outcome>(f, "channel", "status", m,
                                         "The round a channel ended in",
                                         "From channel.created to the channel's end");
}

void events(families& f, const actors::metrics::node_metrics& m) {
  f.family("events_total",
           "Bus events the metrics actor counted, by topic (the topics of "
           "docs/metrics.md)",
           MetricType::Counter);
  auto wanted = actors::metrics::recorded_topics();
  for (std::size_t i = 0; i < messages::topic_count; ++i) {
    auto t = static_cast<messages::topic>(i);
    if (wanted.contains(t))
      f.value(num(m.events[i].value()), {{"topic", messages::name_of(t)}});
  }
}

void llm(families& f, const actors::metrics::llm_metrics& m) {
  f.family("llm_calls_total", "LLM calls answered, failed ones included",
           MetricType::Counter)
      .value(num(m.calls.value()));
  f.family("llm_errors_total", "LLM calls answered with an error, by code",
           MetricType::Counter)
      .value(num(m.unavailable.value()), {{"code", "E003"}})
      .value(num(m.timeouts.value()), {{"code", "E004"}});
  f.family("llm_circuit_rejected_total",
           "LLM calls refused at once because the circuit was open",
           MetricType::Counter)
      .value(num(m.circuit_rejected.value()));
  f.family("llm_call_duration_seconds", "From an LLM call's arrival to its answer",
           MetricType::Histogram)
      .hist(m.latency_ms, 1e3);
  f.family("llm_circuit_breakers",
           "LLM clients by circuit breaker state (as of each client's last call)",
           MetricType::Gauge);
  const char* states[] = {"closed", "open", "half_open"};
  for (std::size_t i = 0; i < m.breakers.size(); ++i)
    f.value(static_cast<double>(m.breakers[i].value()), {{"state", states[i]}});
}

void store(families& f, const actors::metrics::store_metrics& m) {
  f.family("store_commits_total", "Store transactions (group commits) committed",
           MetricType::Counter)
      .value(num(m.commits.value()));
  f.family("store_commit_failures_total",
           "Store transactions that failed (the batch is written again)",
           MetricType::Counter)
      .value(num(m.failures.value()));
  f.family("store_commit_duration_seconds", "One store transaction",
           MetricType::Histogram)
      .hist(m.commit_us, 1e6);
  f.family("store_commit_batch_rows",
           "Rows one store transaction writes (negotiation writes and channel events)",
           MetricType::Histogram)
      .hist(m.batch_rows, 1);
}

void http_requests(families& f, const actors::metrics::http_metrics& m) {
  f.family("http_requests_total", "HTTP requests answered, by route pattern and status",
           MetricType::Counter);
  using actors::metrics::http_metrics;
  for (std::size_t r = 0; r < m.routes(); ++r)
    for (auto s = http_metrics::first_status; s <= http_metrics::last_status; ++s)
      if (auto n = m.requests(r, s); n > 0)
        f.value(num(n),
                {{"route", std::string{route_name(r)}}, {"status", std::to_string(s)}});
  f.family("http_request_duration_seconds",
           "From a request's arrival at the routes to its answer",
           MetricType::Histogram)
      .hist(m.duration_us, 1e6);
}

void streams(families& f, const actors::metrics::stream_metrics& m) {
  if (!m.open || !m.dropped)
    return;
  f.family("sse_clients", "Server-Sent-Event streams open", MetricType::Gauge)
      .value(num(m.open()));
  f.family("sse_dropped_clients_total",
           "Event streams closed because their client did not keep up",
           MetricType::Counter)
      .value(num(m.dropped()));
}

void cluster(families& f, const actors::metrics::cluster_metrics& m) {
  if (!m.joined)
    return;
  f.family("cluster_live_members",
           "Members of the cluster that read live, this node included, at its last "
           "heartbeat",
           MetricType::Gauge)
      .value(static_cast<double>(m.live_members.value()));
  f.family("cluster_owned_negotiations",
           "Open negotiations this node owns (runs), at its last heartbeat",
           MetricType::Gauge)
      .value(static_cast<double>(m.owned_negotiations.value()));
  f.family("cluster_owned_channels",
           "Open channels this node owns, at its last heartbeat", MetricType::Gauge)
      .value(static_cast<double>(m.owned_channels.value()));
  f.family("cluster_takeovers_total", "Dead members this node took over",
           MetricType::Counter)
      .value(num(m.takeovers.value()));
  f.family("cluster_taken_negotiations_total",
           "Open negotiations this node took over from dead members (and unowned ones "
           "at its join)",
           MetricType::Counter)
      .value(num(m.taken_negotiations.value()));
  f.family("cluster_taken_channels_total",
           "Open channels this node took over from dead members", MetricType::Counter)
      .value(num(m.taken_channels.value()));
  f.family("cluster_forwarded_moves_total",
           "Moves this node sent to the node that runs their negotiation",
           MetricType::Counter)
      .value(num(m.forwarded.value()));
  f.family("cluster_forward_failures_total",
           "Forwarded moves answered E030 because their node could not be reached",
           MetricType::Counter)
      .value(num(m.forward_failures.value()));
  f.family("cluster_owner_lookups_total",
           "Moves of negotiations another node runs whose node was read from the "
           "store (not known from the owner cache)",
           MetricType::Counter)
      .value(num(m.owner_lookups.value()));
  f.family("cluster_owned_rooms",
           "Rooms of the open negotiations this node owns, at its last heartbeat",
           MetricType::Gauge)
      .value(static_cast<double>(m.owned_rooms.value()));
  f.family("cluster_event_peers",
           "Other live members this node is connected to for the cluster's events",
           MetricType::Gauge)
      .value(static_cast<double>(m.event_peers.value()));
  f.family("cluster_events_sent_total",
           "This node's events acknowledged by another node (one per event and node)",
           MetricType::Counter)
      .value(num(m.events_sent.value()));
  f.family("cluster_events_dropped_total",
           "This node's events dropped for another node that did not keep up or was "
           "lost (one per event and node)",
           MetricType::Counter)
      .value(num(m.events_dropped.value()));
  f.family("cluster_events_received_total",
           "Other nodes' events shown on this node's event streams",
           MetricType::Counter)
      .value(num(m.events_received.value()));
  f.family("cluster_events_duplicates_total",
           "Other nodes' events that came again (a batch sent again) and were not "
           "shown twice",
           MetricType::Counter)
      .value(num(m.events_duplicates.value()));
}

void actor_system(families& f, caf::actor_system& sys) {
  f.family("caf_running_actors", "Actors running in the CAF actor system",
           MetricType::Gauge)
      .value(static_cast<double>(sys.registry().running()));
  f.family("caf_scheduler_workers", "CAF scheduler worker threads", MetricType::Gauge)
      .value(static_cast<double>(sys.scheduler().num_workers()));
}

} // namespace

metrics_collector::metrics_collector(
    std::shared_ptr<const actors::metrics::node_metrics> metrics,
    caf::actor_system* sys)
    : metrics_(std::move(metrics)), sys_(sys) {}

std::vector<MetricFamily> metrics_collector::Collect() const {
  families f;
  negotiations(f, metrics_->negotiations);
  channels(f, metrics_->channels);
  events(f, *metrics_);
  llm(f, metrics_->llm);
  store(f, metrics_->store);
  http_requests(f, metrics_->http);
  streams(f, metrics_->streams);
  cluster(f, metrics_->cluster);
  if (sys_ != nullptr)
    actor_system(f, *sys_);
  return f.take();
}

} // namespace parley::service
