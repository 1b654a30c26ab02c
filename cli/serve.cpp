#include "cli/serve.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include "caf/actor_registry.hpp"
#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/send.hpp"

#include "actors/common/wall_clock.hpp"
#include "actors/gateway/actor.hpp"
#include "actors/store/backend.hpp"
#include "actors/store/presence.hpp"
#include "actors/store/store_url.hpp"
#include "cli/cluster_membership.hpp"
#include "cli/exit_codes.hpp"
#include "cli/fd_limit.hpp"
#include "cli/node_port.hpp"
#include "cluster/node_transport.hpp"
#include "messages/error_code.hpp"
#include "messages/input_limits.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/stop_signals.hpp"
#include "runtime/world.hpp"
#include "service/api_service.hpp"
#include "service/channel_members.hpp"
#include "service/cluster_view.hpp"
#include "service/metrics_route.hpp"

namespace parley::cli {

namespace {

/// How long the store may take to confirm its last commit at shutdown (after
/// at most serve.shutdown_grace_ms, 3 s by default, for the requests in flight:
/// the whole stop stays within 5 s).
constexpr auto shutdown_flush_limit = std::chrono::milliseconds(1500);

/// What the gateway's recovery reported, or why it failed.
struct recovery_outcome {
  std::string failure;
  messages::recovery_report report;
};

/// A recovery under way: its outcome arrives on `outcome`; the actor that
/// waits for it ends at once on an exit message (no blocking receive, so a
/// stop signal during a long recovery is not kept waiting).
struct recovery {
  caf::actor asker;
  std::future<recovery_outcome> outcome;
};

/// The actor that asks the gateway to recover and hands the answer to `done`.
void ask_recovery(caf::event_based_actor* self, const actors::gateway_actor& gateway,
                  std::chrono::milliseconds load_timeout,
                  const std::shared_ptr<std::promise<recovery_outcome>>& done) {
  // The gateway bounds each of its four loads, and the coordinator's resuming
  // of the channels, by `load_timeout`.
  self->request(gateway, 6 * load_timeout, messages::recover_atom::value)
      .then(
          [done](messages::recovery_report& x) {
            done->set_value({{}, std::move(x)});
          },
          [self, done](caf::error& err) {
            done->set_value({self->system().render(err), {}});
          });
}

/// Counts what a recovery resumed in `metrics` (if any).
void count_resumed(const std::shared_ptr<actors::metrics::node_metrics>& metrics,
                   const messages::recovery_report& x) {
  if (!metrics)
    return;
  metrics->negotiations.resumed.add(static_cast<std::uint64_t>(x.negotiations));
  metrics->channels.resumed.add(static_cast<std::uint64_t>(x.channels));
}

/// The actor that asks the gateway to resume what a take-over claimed
/// (docs/cluster.md, "Ownership and take-over") and says what it resumed.
void resume_taken(caf::event_based_actor* self, const actors::gateway_actor& gateway,
                  std::chrono::milliseconds load_timeout, std::string taken,
                  std::shared_ptr<actors::metrics::node_metrics> metrics,
                  std::ostream* out) {
  // A gateway that stops (serve stops) drops the request unanswered, and
  // this actor would keep the actor system, and the process, waiting for
  // its long timeout: it ends with the gateway. What it took over stays
  // this incarnation's in the store, for the next take-over.
  self->monitor(gateway);
  self->set_down_handler([self](const caf::down_msg&) { self->quit(); });
  self->request(gateway, 6 * load_timeout, messages::recover_atom::value)
      .then(
          [=](const messages::recovery_report& x) {
            count_resumed(metrics, x);
            std::string line = "parley serve: took over " + taken + ": resumed " +
                               std::to_string(x.negotiations) + " negotiations, " +
                               std::to_string(x.channels) + " channels\n";
            for (const auto& why : x.skipped)
              line += "parley serve: not resumed: " + why + "\n";
            *out << line << std::flush;
          },
          [=](const caf::error& err) {
            *out << ("parley serve: " +
                     messages::to_code(messages::error_code::store_failed) +
                     " cannot resume what it took over (" + taken +
                     "): " + self->system().render(err) + "\n")
                 << std::flush;
          });
}

/// How long serve waits after its stop for its last actors to end: the
/// actor system's destructor would wait for them without a bound.
constexpr auto actors_grace = std::chrono::milliseconds(5000);

/// Whether every actor of `sys` ended within `limit`. Polled: CAF 0.17's
/// registry has no timed wait (await_running_count_equal blocks).
bool actors_ended(caf::actor_system& sys, std::chrono::milliseconds limit) {
  auto until = std::chrono::steady_clock::now() + limit;
  while (sys.registry().running() > 0) {
    if (std::chrono::steady_clock::now() >= until)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

/// Declared right after serve's actor system, so destroyed after everything
/// serve built (whose destructors stop their actors) and before the actor
/// system, whose destructor waits for every actor without a bound: waits
/// `actors_grace` for them, then ends the process with `code` if some still
/// run. Such an actor is a defect, and reported; but a stop must end, and
/// what any actor held was committed or answered by then.
class bounded_exit {
public:
  bounded_exit(caf::actor_system& sys, std::ostream& err) : sys_(sys), err_(err) {}
  bounded_exit(const bounded_exit&) = delete;
  bounded_exit& operator=(const bounded_exit&) = delete;

  ~bounded_exit() {
    if (actors_ended(sys_, actors_grace))
      return;
    err_ << "parley serve: " << sys_.registry().running() << " actors still running "
         << actors_grace.count() << " ms after the stop: exiting without them"
         << std::endl;
    std::fflush(nullptr);
    std::_Exit(code);
  }

  /// The exit code serve returns (a failure until it says otherwise).
  int code = exit_failed;

private:
  caf::actor_system& sys_;
  std::ostream& err_;
};

/// "incarnations 3, 4 (2 open negotiations, 0 channels)".
std::string taken_text(const actors::store::take_over_report& x) {
  std::string out = x.incarnations.size() == 1 ? "incarnation " : "incarnations ";
  for (std::size_t i = 0; i < x.incarnations.size(); ++i)
    out += (i > 0 ? ", " : "") + std::to_string(x.incarnations[i]);
  if (x.incarnations.empty())
    out = "no member's";
  return out + " (" + std::to_string(x.negotiations) + " open negotiations, " +
         std::to_string(x.channels) + " channels)";
}

/// Asks the gateway to restore the store's agents and rooms and resume its
/// open negotiations and channels (actors/gateway/).
recovery start_recovery(caf::actor_system& sys, const actors::gateway_actor& gateway,
                        std::chrono::milliseconds load_timeout) {
  auto done = std::make_shared<std::promise<recovery_outcome>>();
  auto outcome = done->get_future();
  auto asker = sys.spawn(ask_recovery, gateway, load_timeout, std::move(done));
  return {std::move(asker), std::move(outcome)};
}

/// Waits for the recovery to end or a stop signal to come, whichever is
/// first; returns the signal, or 0 when the recovery ended.
int await_recovery(const recovery& r, const sigset_t& stop_signals) {
  constexpr auto poll = std::chrono::milliseconds(50);
  while (r.outcome.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    if (auto signal = runtime::next_stop_signal(stop_signals, poll); signal != 0)
      return signal;
  return 0;
}

/// Why serve may not open the store `store` names (empty: it may), with what
/// to do about it: it is not there and is not to be created, or it is to be
/// created over a log left from one that vanished.
std::string unusable_store(const serve_store& store) {
  actors::store::store_url parsed;
  if (auto why = actors::store::parse_store_url(store.url, parsed); !why.empty())
    return "cannot open the store: " + why;
  if (store.create)
    return actors::store::leftover_log(parsed);
  try {
    auto why = actors::store::missing_store(parsed);
    if (why.empty())
      return {};
    return why +
           ". A store that vanished would lose every acknowledged move: restore "
           "it, or start serve with --create-store (or run `parley db migrate "
           "--store " +
           actors::store::redacted(parsed) + "`) to make a new, empty store";
  } catch (const actors::store::store_error& e) {
    return std::string{"cannot open the store: "} + e.what();
  }
}

/// Why serve may not join a cluster over `store` (empty: it may): the
/// members' leases need one store that every node reaches, a PostgreSQL one
/// (docs/cluster.md, "Membership").
std::string unclusterable_store(const serve_store& store) {
  actors::store::store_url parsed;
  if (!actors::store::parse_store_url(store.url, parsed).empty() ||
      parsed.kind == actors::store::store_kind::postgresql)
    return {};
  return "--cluster needs a PostgreSQL store (postgresql://...) that every node "
         "shares; " +
         actors::store::redacted(parsed) + " is an SQLite file";
}

/// Hands the members the membership read (`rows`) to what works from them:
/// the reachable ones to `placement` (when openings are placed), and the
/// others' node addresses to the event `exchange`, as where this node's
/// events go (cluster/event_exchange.hpp). `own`: this node's address.
void use_members(const std::vector<actors::store::member_row>& rows,
                 const std::string& own, actors::gateway::placement_table* placement,
                 const actors::event_exchange_actor& exchange) {
  std::vector<actors::gateway::placement_candidate> live;
  std::vector<std::string> peers;
  for (const auto& m : rows) {
    if (!actors::store::reachable(m))
      continue;
    live.push_back({m.key.incarnation, m.node_address});
    if (m.node_address != own)
      peers.push_back(m.node_address);
  }
  if (placement)
    placement->set(own, std::move(live));
  caf::anon_send(exchange, messages::peers_atom::value, std::move(peers));
}

const char* name_of(int signal) {
  return signal == SIGTERM ? "SIGTERM" : "SIGINT";
}

} // namespace

int run_serve(const config::settings& settings, const std::string& api_token,
              const serve_store& store_choice, const serve_cluster& cluster,
              std::ostream& out, std::ostream& err) {
  const auto& serve = settings.serve;
  std::string token;
  try {
    token = service::token_of(serve, api_token);
    service::check_exposure(serve, token);
  } catch (const std::runtime_error& e) {
    err << "parley serve: " << e.what() << "\n";
    return exit_usage;
  }
  if (auto why =
          cluster.name.empty() ? std::string{} : unclusterable_store(store_choice);
      !why.empty()) {
    err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
        << " " << why << "\n";
    return exit_usage;
  }
  const bool node_port = !cluster.name.empty() && cluster.node_port >= 0;
  if (auto why = node_port ? exposed_node_port(settings.cluster, cluster.node_host)
                           : std::string{};
      !why.empty()) {
    err << "parley serve: " << why << "\n";
    return exit_usage;
  }
  if (auto why = unusable_store(store_choice); !why.empty()) {
    err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
        << " " << why << "\n";
    return exit_failed;
  }
  // The signals reach only the sigwait below.
  auto stop_signals = runtime::block_stop_signals();
  caf::actor_system_config cfg;
  // Serve's workers wait on its I/O and store threads: they sleep when idle.
  // A node port needs CAF's middleman (and its OpenSSL module with TLS files).
  configure(cfg, runtime::system_options{false, settings.runtime.scheduler_threads,
                                         node_port, settings.cluster, true});
  caf::actor_system sys{cfg};
  // Destroyed after everything below, before the actor system.
  bounded_exit ending{sys, err};
  // Demand ids are drawn from the coordinator's seed: a new one per process,
  // so that a restarted serve does not hand out the ids of stored demands.
  // GET /metrics (docs/metrics.md): the bus's events, the store's commits,
  // the LLM clients' calls and the HTTP requests.
  runtime::world w{sys, settings, {}, std::random_device{}(), service::make_node_metrics()};
  // Past every message number an earlier process of this store could have
  // given its hosted agents: a resumed negotiation never sees an id twice.
  w.number_agent_messages_from(
      static_cast<std::uint64_t>(actors::wall_clock{sys}.now_ms()) * 1000);
  // A cluster's node writes as its incarnation, once it joined
  // (docs/cluster.md, "Fencing").
  std::shared_ptr<actors::store::member_fence> fence;
  if (!cluster.name.empty())
    fence =
        std::make_shared<actors::store::member_fence>(cluster.name, cluster.lease_ms);
  actors::store_actor store;
  try {
    store = w.add_store(store_choice.url, false, fence);
  } catch (const actors::store::store_error& e) {
    err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
        << " cannot open the store: " << e.what() << "\n";
    return exit_failed;
  }
  // The store, the actor system and the logs hold what they open at start
  // by now: the connections get what the open-files limit leaves.
  auto fds = raise_fd_limit();
  auto served = serve;
  served.max_connections =
      static_cast<std::int32_t>(connection_cap(serve.max_connections, fds));
  std::shared_ptr<service::cluster_view> view;
  // Where openings are placed (--placement spread, with a node port): set
  // from the members the membership reads (use_members), read by the gateway.
  std::shared_ptr<actors::gateway::placement_table> placement;
  if (!cluster.name.empty())
    view = std::make_shared<service::cluster_view>(cluster.name);
  std::optional<service::api_service> api;
  std::uint16_t port = 0;
  try {
    service::cluster_service clustered{view, {}, {}};
    if (node_port) {
      clustered.connector =
          caf::actor_cast<caf::actor>(cluster::connecting_middleman(sys));
      if (cluster.spread) {
        placement = std::make_shared<actors::gateway::placement_table>();
        clustered.placement = placement;
      }
    }
    api.emplace(w, store, served, token, clustered);
    port = api->start();
  } catch (const std::runtime_error& e) {
    err << "parley serve: " << e.what() << "\n";
    return exit_failed;
  }
  out << "parley serve listening on " << serve.host << ":" << port << " ("
      << (token.empty() ? "no token" : "bearer token required") << ", "
      << serve.io_threads << " I/O threads, at most " << served.max_connections
      << " connections and 1 for health checks); recovering the store" << std::endl;
  if (served.max_connections < serve.max_connections)
    out << "parley serve: serve.max_connections " << serve.max_connections
        << " lowered to " << served.max_connections << ": the open-files limit is "
        << fds.limit << ", " << fds.open << " are open and " << fd_reserve
        << " kept for the store, LLM calls and logs" << std::endl;
  // The cluster's membership (docs/cluster.md, "Membership"): a lost lease
  // stops serve through the path a SIGTERM takes, with exit 1.
  std::atomic<bool> lease_lost{false};
  std::optional<cluster_membership> member;
  std::optional<serve_node_port> node;
  const auto api_address = serve.host + ":" + std::to_string(port);
  const auto node_id = cluster.node_id.empty() ? api_address : cluster.node_id;
  // The cluster's events (docs/cluster.md): this node's go to the other live
  // members, theirs come through the node port to this node's streams.
  actors::event_exchange_actor exchange;
  if (node_port)
    exchange = api->share_events(
        node_id, caf::actor_cast<caf::actor>(cluster::connecting_middleman(sys)));
  if (node_port) {
    try {
      node.emplace(
          sys, settings.cluster, api->gateway(),
          [members =
               std::weak_ptr<const service::external_members>{api->channel_members()}](
              const std::string& agent_id) {
            auto registry = members.lock();
            return registry ? registry->taker(agent_id) : actors::answer_taker_actor{};
          },
          cluster.node_host, static_cast<std::uint16_t>(cluster.node_port), exchange);
    } catch (const std::runtime_error& e) {
      err << "parley serve: " << e.what() << "\n";
      api->stop(std::chrono::milliseconds(0));
      w.stop();
      return exit_failed;
    }
    out << "parley serve: node port " << node->address() << " ("
        << (settings.cluster.tls() ? "mutual TLS" : "no TLS") << ", at most "
        << settings.cluster.max_connections << " connections)" << std::endl;
  }
  if (view) {
    actors::store::member_join j;
    j.cluster = cluster.name;
    j.api_address = api_address;
    j.node_id = node_id;
    if (node) {
      j.node_address = node->address();
      view->on_set([exchange, placement, own = j.node_address](
                       const std::vector<actors::store::member_row>& rows) {
        use_members(rows, own, placement.get(), exchange);
      });
    }
    j.lease_ms = cluster.lease_ms;
    actors::store::store_url url;
    actors::store::parse_store_url(store_choice.url, url);
    auto on_taken = [&sys, gateway = api->gateway(), metrics = w.metrics(),
                     out = &out](const actors::store::take_over_report& x) {
      sys.spawn(resume_taken, gateway,
                actors::gateway::gateway_options{}.recovery_timeout, taken_text(x),
                metrics, out);
    };
    try {
      member.emplace(
          url, j, fence, view, err,
          [&lease_lost] {
            lease_lost = true;
            kill(getpid(), SIGTERM);
          },
          on_taken,
          w.metrics()
              ? std::shared_ptr<actors::metrics::cluster_metrics>{w.metrics(),
                                                                  &w.metrics()->cluster}
              : nullptr);
    } catch (const std::exception& e) {
      err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
          << " cannot join cluster " << cluster.name << ": " << e.what() << "\n";
      api->stop(std::chrono::milliseconds(0));
      w.stop();
      return exit_failed;
    }
    out << "parley serve: joined cluster " << cluster.name << " as " << j.node_id
        << ", incarnation " << member->incarnation() << std::endl;
    if (!member->first_take_over().empty())
      out << "parley serve: took over " << taken_text(member->first_take_over())
          << "; recovery resumes them" << std::endl;
  }
  // Stops accepting, answers what is in flight, commits what is left, and
  // leaves the cluster.
  auto shut_down = [&](std::chrono::milliseconds grace) {
    auto left = api->stop(grace);
    // What no request waited for (an expiry, a hosted agent's move) is
    // committed too before the process goes.
    if (auto why = w.flush_store(shutdown_flush_limit); !why.empty())
      err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
          << " the store did not confirm its last commit: " << why << "\n";
    if (member)
      if (auto why = member->leave(); !why.empty())
        err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
            << " cannot leave cluster " << cluster.name << ": " << why << "\n";
    node.reset();
    w.stop();
    return left;
  };
  auto recovering = start_recovery(sys, api->gateway(),
                                   actors::gateway::gateway_options{}.recovery_timeout);
  if (auto signal = await_recovery(recovering, stop_signals); signal != 0) {
    // Whatever is not resumed yet is still open in the store: the next start
    // resumes it.
    out << "parley serve: " << name_of(signal)
        << " during recovery: stopping; the store keeps what is not resumed yet"
        << std::endl;
    caf::anon_send_exit(recovering.asker, caf::exit_reason::user_shutdown);
    shut_down(std::chrono::milliseconds(0));
    out << "parley serve: stopped" << std::endl;
    // The store may still be reading what recovery asked for (one query; a
    // large store under the sanitizers takes seconds), and the actor system
    // would wait for it on the way out. No client was answered yet: what is
    // not committed is still open in the store, and the next start resumes
    // it. So the process ends here, within the 5 s a stop may take.
    out.flush();
    err.flush();
    std::fflush(nullptr);
    std::_Exit(lease_lost ? exit_failed : exit_ok);
  }
  auto recovered = recovering.outcome.get();
  if (!recovered.failure.empty()) {
    err << "parley serve: " << messages::to_code(messages::error_code::store_failed)
        << " cannot recover the store: " << recovered.failure << "\n";
    api->stop(std::chrono::milliseconds(0));
    if (member)
      member->leave();
    w.stop();
    return exit_failed;
  }
  const auto& report = recovered.report;
  out << "parley serve: recovered " << report.agents << " agents, " << report.rooms
      << " rooms, " << report.negotiations << " open negotiations, " << report.channels
      << " open channels" << std::endl;
  count_resumed(w.metrics(), report);
  for (const auto& line : report.skipped)
    out << "parley serve: not resumed: " << line << std::endl;
  api->set_ready();
  out << "parley serve: ready" << std::endl;
  int signal = 0;
  while (signal != SIGTERM && signal != SIGINT) {
    if (!node) {
      sigwait(&stop_signals, &signal);
      continue;
    }
    signal = runtime::next_stop_signal(stop_signals, node->sweep_every());
    node->sweep();
  }
  out << "parley serve: " << (lease_lost ? "lease lost" : name_of(signal))
      << ": no new connections; answering the requests in flight" << std::endl;
  auto left = shut_down(std::chrono::milliseconds(serve.shutdown_grace_ms));
  out << "parley serve: stopped (" << left << " requests unanswered)" << std::endl;
  ending.code = lease_lost ? exit_failed : exit_ok;
  return ending.code;
}

} // namespace parley::cli
