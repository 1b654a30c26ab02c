#include "service/api_service.hpp"

#include <atomic>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "caf/send.hpp"

#include "actors/gateway/actor.hpp"
#include "cluster/event_exchange.hpp"
#include "cluster/tls_check.hpp"
#include "messages/cluster_event.hpp"
#include "messages/error_code.hpp"
#include "messages/input_limits.hpp"
#include "runtime/world.hpp"
#include "service/bearer.hpp"
#include "service/channel_members.hpp"
#include "service/cluster_view.hpp"
#include "service/metrics_collector.hpp"
#include "service/metrics_route.hpp"
#include "service/routes.hpp"
#include "service/server.hpp"
#include "service/sse_feed.hpp"
#include "service/sse_hub.hpp"

namespace parley::service {

namespace {

/// The gateway's builder over `w`: an agent registered over the API joins
/// the channels too; a room gets the world's settings.
actors::gateway::builder builder_of(runtime::world& w,
                                    const std::shared_ptr<external_members>& members) {
  return {[&w, members](messages::agent_spec spec) {
            auto agent = w.add_agent(spec);
            join_channels(w, members, spec, agent);
            return agent;
          },
          [&w, seed = std::uint64_t{0}](
              std::string id, std::vector<messages::room_member> peers) mutable {
            std::vector<messages::room_spec> specs;
            specs.push_back(w.room_spec(std::move(id), std::move(peers), ++seed));
            return w.add_rooms(std::move(specs)).front();
          },
          [members](const std::vector<messages::channel_event>& events) {
            restore_answers(*members, events);
          }};
}

server::options server_options(const config::serve_settings& settings,
                                     std::string token) {
  server::options opts;
  opts.host = settings.host;
  opts.port = static_cast<std::uint16_t>(settings.port);
  opts.io_threads = static_cast<std::size_t>(settings.io_threads);
  opts.max_body_bytes = static_cast<std::size_t>(settings.max_body_bytes);
  opts.token = std::move(token);
  opts.idle_timeout = std::chrono::milliseconds(settings.idle_timeout_ms);
  opts.stream_keepalive = std::chrono::milliseconds(settings.sse_keepalive_ms);
  opts.stream_queue_bytes = static_cast<std::size_t>(settings.sse_queue_bytes);
  opts.max_connections = static_cast<std::size_t>(settings.max_connections);
  return opts;
}

std::shared_ptr<sse_hub> make_hub(const config::serve_settings& settings) {
  sse_hub::options opts;
  opts.replay_events = static_cast<std::size_t>(settings.sse_replay_events);
  return std::make_shared<sse_hub>(opts);
}

/// What `GET /metrics` renders when `w` keeps metrics: its instruments and
/// its actor system's (service/metrics_collector.hpp).
std::shared_ptr<const metrics_collector> collector_of(runtime::world& w) {
  if (!w.metrics())
    return nullptr;
  return std::make_shared<metrics_collector>(w.metrics(), &w.system());
}

/// The routes, with their requests counted when `w` keeps metrics
/// (service/metrics_route.hpp).
handler_function handler_of(runtime::world& w, routes routes) {
  if (!w.metrics())
    return routes;
  return with_metrics(std::move(routes), w.metrics());
}

} // namespace

struct api_service::impl {
  impl(runtime::world& w, actors::store_actor store,
       const config::serve_settings& settings, std::string token,
       cluster_service cluster)
      : sys(&w.system()), timeout(settings.request_timeout_ms),
        // An answer forwarded to a channel is refused within half a request's
        // time, so that the refusal, not the route's timeout, reaches the client.
        members(std::make_shared<external_members>(w.system(), timeout / 2, store,
                                                   cluster.view != nullptr,
                                                   cluster.connector)),
        gateway(spawn_gateway(w, store, members, cluster)), hub(make_hub(settings)),
        feed(spawn_sse_feed(w.system(), w.events(), hub)),
        server(
            server_options(settings, std::move(token)),
            handler_of(w, routes{w.system(),
                                 {gateway, std::move(store), w.coordinator(), members,
                                  hub, collector_of(w), std::move(cluster.view)},
                                 route_options(settings),
                                 ready})) {}

  actors::gateway_actor spawn_gateway(runtime::world& w,
                                      const actors::store_actor& store,
                                      const std::shared_ptr<external_members>& with,
                                      const cluster_service& cluster) {
    actors::gateway::gateway_options opts;
    opts.clustered = cluster.view != nullptr;
    opts.connector = cluster.connector;
    opts.placement = cluster.placement;
    if (cluster.view && w.metrics())
      opts.metrics = {w.metrics(), &w.metrics()->cluster};
    opts.outcome_timeout = timeout;
    opts.store = store;
    opts.coordinator = w.coordinator();
    return actors::gateway::spawn_gateway(w.system(), builder_of(w, with), w.events(),
                                          opts);
  }

  routes::options route_options(const config::serve_settings& settings) const {
    routes::options opts;
    opts.timeout = timeout;
    opts.max_in_flight = static_cast<std::size_t>(settings.max_in_flight);
    return opts;
  }

  caf::actor_system* sys;
  std::chrono::milliseconds timeout;
  std::shared_ptr<std::atomic<bool>> ready = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<external_members> members;
  actors::gateway_actor gateway;
  /// The event streams: the hub the routes serve them from, and the bus
  /// subscriber that fills it.
  std::shared_ptr<sse_hub> hub;
  actors::subscriber_actor feed;
  service::server server;
  /// The world's metrics, whose stream gauges ask `server` (unset at stop).
  std::shared_ptr<actors::metrics::node_metrics> metrics;
  /// The cluster's events (share_events).
  actors::event_exchange_actor exchange;
  bool stopped = false;
};

api_service::api_service(runtime::world& w, actors::store_actor store,
                         const config::serve_settings& settings, std::string token,
                         cluster_service cluster) {
  check_exposure(settings, token);
  impl_ = std::make_unique<impl>(w, std::move(store), settings, std::move(token),
                                 std::move(cluster));
  if (const auto& metrics = w.metrics()) {
    // Asked only by a scrape, which the server answers: never after it stopped.
    const auto* server = &impl_->server;
    metrics->streams = {[server] { return server->open_streams(); },
                        [server] {
                          return server->dropped_streams();
                        }};
    impl_->metrics = metrics;
  }
}

api_service::~api_service() {
  stop(std::chrono::milliseconds(0));
}

std::uint16_t api_service::start() {
  return impl_->server.start();
}

const actors::gateway_actor& api_service::gateway() const noexcept {
  return impl_->gateway;
}

std::shared_ptr<const external_members> api_service::channel_members() const noexcept {
  return impl_->members;
}

actors::event_exchange_actor api_service::share_events(const std::string& node_id,
                                                       caf::actor connector) {
  auto& x = *impl_;
  if (x.exchange)
    return x.exchange;
  cluster::event_exchange_options opts;
  opts.node_id = node_id;
  std::random_device entropy;
  opts.stream = (std::uint64_t{entropy()} << 32) | entropy();
  opts.connector = std::move(connector);
  opts.show = [hub = x.hub](const std::string& from, const messages::cluster_event& e) {
    hub->publish_remote(from,
                        {static_cast<messages::topic>(e.topic), e.negotiation_id,
                         e.channel_id, e.demand_id},
                        e.at_ms, e.payload);
  };
  if (x.metrics)
    opts.metrics = {x.metrics, &x.metrics->cluster};
  x.exchange = cluster::spawn_event_exchange(*x.sys, std::move(opts));
  x.hub->share(node_id,
               [exchange = x.exchange](const event_keys& keys, std::int64_t at_ms,
                                       const std::string& payload) {
                 messages::cluster_event e;
                 e.topic = static_cast<std::uint8_t>(keys.topic);
                 e.negotiation_id = keys.negotiation_id;
                 e.channel_id = keys.channel_id;
                 e.demand_id = keys.demand_id;
                 e.at_ms = at_ms;
                 e.payload = payload;
                 caf::anon_send(exchange, std::move(e));
               });
  // The other nodes' streams show this node's events of every topic, from now
  // on, whether or not a stream of its own is open.
  x.hub->start_global();
  return x.exchange;
}

void api_service::set_ready() {
  impl_->ready->store(true);
}

std::size_t api_service::open_streams() const {
  return impl_->server.open_streams();
}

std::size_t api_service::stop(std::chrono::milliseconds grace) {
  if (impl_->stopped)
    return 0;
  impl_->stopped = true;
  impl_->ready->store(false);
  auto left = impl_->server.stop(grace);
  if (impl_->metrics)
    impl_->metrics->streams = {};
  caf::anon_send_exit(impl_->gateway, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(impl_->feed, caf::exit_reason::user_shutdown);
  if (impl_->exchange) {
    // The hub's listener holds the exchange, whose state holds the hub.
    impl_->hub->share({}, {});
    caf::anon_send_exit(impl_->exchange, caf::exit_reason::user_shutdown);
  }
  impl_->members->stop();
  return left;
}

void check_exposure(const config::serve_settings& settings, const std::string& token) {
  if (token.empty() && !cluster::is_loopback(settings.host))
    throw std::runtime_error(
        messages::to_code(messages::error_code::invalid_config) +
        " refusing to listen on " + settings.host +
        " without a bearer token: anyone who reaches it could drive negotiations. "
        "Give --token-file FILE (serve.token_file) or PARLEY_API_TOKEN, or listen on "
        "127.0.0.1.");
}

std::string token_of(const config::serve_settings& settings,
                     const std::string& api_token) {
  if (api_token.empty() && settings.token_file.empty())
    return {};
  std::string token;
  std::string source = "PARLEY_API_TOKEN";
  if (!api_token.empty()) {
    token = trim_token(api_token);
  } else {
    auto file = messages::read_text_file(settings.token_file, 4096);
    if (!file.error.empty())
      throw std::runtime_error(messages::to_code(messages::error_code::invalid_config) +
                               " cannot read the token file " + settings.token_file +
                               ": " + file.error);
    token = trim_token(file.text.substr(0, file.text.find_first_of("\r\n")));
    source = "the token file " + settings.token_file + " (its first line)";
  }
  // Neither the token nor its length is printed.
  if (token.size() < min_token_length)
    throw std::runtime_error(messages::to_code(messages::error_code::invalid_config) +
                             " the bearer token of " + source + " is " +
                             (token.empty() ? "empty" : "too short") +
                             " once trimmed of whitespace: it must have at least " +
                             std::to_string(min_token_length) + " characters");
  return token;
}

} // namespace parley::service
