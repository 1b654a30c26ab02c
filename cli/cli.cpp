#include "cli/cli.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "actors/store/membership.hpp"
#include "actors/store/store_url.hpp"
#include "cli/bench.hpp"
#include "cli/bench_ballots.hpp"
#include "cli/bench_channels.hpp"
#include "cli/cluster_commands.hpp"
#include "cli/demo.hpp"
#include "cli/exit_codes.hpp"
#include "cli/tournament.hpp"
#include "cli/scenario.hpp"
#include "cli/scenario_runner.hpp"
#include "cli/serve.hpp"
#include "cli/store_commands.hpp"
#include "cli/watch.hpp"
#include "cluster/room_placement.hpp"
#include "config/loader.hpp"
#include "messages/input_limits.hpp"
#include "runtime/node.hpp"
#include "runtime/version.hpp"
#include "service/api_service.hpp"

namespace parley::cli {

namespace {

/// --tls-ca, --tls-cert and --tls-key of `node`, `run`, `bench` and `serve`; each
/// given one overrides its cluster.tls_* setting.
struct tls_flags {
  std::string ca;
  std::string certificate;
  std::string key;
};

struct global_options {
  std::string config_file;
  /// The cap on the size of the --config file and of a scenario file.
  std::size_t max_file_bytes = messages::default_max_file_bytes;
  tls_flags tls;
};

const char* environment(const char* name) {
  return std::getenv(name);
}

const char* no_environment(const char*) {
  return nullptr;
}

/// Defaults, then the --config file, then (for `run`) the scenario's `config`,
/// then the environment: later sources win (docs/configuration.md).
config::settings load_settings(const global_options& global,
                               const scenario* plan = nullptr,
                               const std::string& plan_source = {}) {
  auto settings =
      config::load(global.config_file, no_environment, global.max_file_bytes);
  if (plan != nullptr)
    config::apply_overrides(settings, plan->config, plan_source + ": config");
  config::apply_environment(settings, environment);
  const auto& tls = global.tls;
  if (!tls.ca.empty() || !tls.certificate.empty() || !tls.key.empty()) {
    auto& cluster = settings.cluster;
    for (auto [flag, setting] : {std::pair{&tls.ca, &cluster.tls_ca},
                                 std::pair{&tls.certificate, &cluster.tls_certificate},
                                 std::pair{&tls.key, &cluster.tls_key}})
      if (!flag->empty())
        *setting = *flag;
    if (auto why = config::validate(settings); !why.empty())
      throw config::config_error("command line (--tls-*)", why);
  }
  return settings;
}

std::uint64_t fresh_seed() {
  std::random_device source;
  return (static_cast<std::uint64_t>(source()) << 32) | source();
}

struct demo_options {
  bool json = false;
  std::uint64_t seed = 0;
  bool seed_given = false;
};

int demo_command(const global_options& global, const demo_options& options) {
  auto settings = load_settings(global);
  auto summary = run_demo(
      settings, options.json ? output_format::json_lines : output_format::timeline,
      options.seed_given ? options.seed : fresh_seed(), std::cout);
  return summary.accepted > 0 ? exit_ok : exit_failed;
}

/// `--serve` and `--serve-linger` of `run` and `bench`.
struct watch_flags {
  std::string address;
  std::int64_t linger_s = 60;
  std::int64_t clients = 0;
};

/// What `flags` ask for, over `settings`' serve section; the token comes from
/// PARLEY_API_TOKEN or serve.token_file, as for `parley serve`.
watch_options watch_of(const config::settings& settings, const watch_flags& flags,
                       bool temporary_store) {
  watch_options watch;
  if (flags.address.empty())
    return watch;
  watch.enabled = true;
  watch.settings = with_address(settings.serve, flags.address);
  const auto* token = environment("PARLEY_API_TOKEN");
  watch.token = service::token_of(watch.settings, token != nullptr ? token : "");
  watch.linger = std::chrono::seconds(flags.linger_s);
  watch.clients = static_cast<std::size_t>(flags.clients);
  watch.temporary_store = temporary_store;
  return watch;
}

struct run_command_options {
  std::string scenario_file;
  bool simulated_time = false;
  std::uint64_t seed = 1;
  bool seed_given = false;
  std::string output_file;
  std::vector<std::string> remotes;
  std::string audit_file;
  std::string store;
  watch_flags watch;
};

int run_command(const global_options& global, const run_command_options& options) {
  auto plan = load_scenario(options.scenario_file, global.max_file_bytes);
  auto settings = load_settings(global, &plan, options.scenario_file);
  if (!options.audit_file.empty())
    settings.audit.path = options.audit_file;
  run_options run;
  run.simulated_time = options.simulated_time;
  run.seed = options.seed_given || options.simulated_time ? options.seed : fresh_seed();
  run.format = output_format::json_lines;
  run.remotes = options.remotes;
  run.store = options.store;
  run.watch = watch_of(settings, options.watch, true);
  if (options.output_file.empty()) {
    run_scenario(plan, settings, run, std::cout);
    return exit_ok;
  }
  std::ofstream out{options.output_file};
  if (!out) {
    std::cerr << "parley: cannot write " << options.output_file << "\n";
    return exit_usage;
  }
  run_scenario(plan, settings, run, out);
  return exit_ok;
}

int bench_command(const global_options& global, bench_options options,
                  const std::string& workload, const watch_flags& watch) {
  auto roomless = workload == "ballots" || workload == "channels";
  if (roomless && !watch.address.empty()) {
    std::cerr << "parley: --serve watches a w1 or w2 load test; the " << workload
              << " workload is not served\n";
    return exit_usage;
  }
  if (roomless && !options.remotes.empty()) {
    std::cerr << "parley: --remote places rooms; the " << workload
              << " workload has none (use --workload w1 or w2)\n";
    return exit_usage;
  }
  if (workload == "ballots" && !options.store.empty()) {
    std::cerr << "parley: --store writes negotiations and channels; the ballots "
                 "workload has neither (use --workload w1, w2 or channels)\n";
    return exit_usage;
  }
  if (workload == "ballots")
    return run_ballot_bench(options.negotiations, options.json, std::cout) == 0
               ? exit_ok
               : exit_failed;
  if (workload == "channels")
    return run_channel_bench(options.negotiations, options.json, options.store,
                             std::cout) == 0
               ? exit_ok
               : exit_failed;
  auto settings = load_settings(global);
  options.watch = watch_of(settings, watch, false);
  run_bench(options, settings, std::cout, std::cerr);
}

int node_command(const global_options& global, const runtime::node_options& options) {
  auto settings = load_settings(global);
  return run_node(options, settings, std::cout, std::cerr);
}

/// Flags of `parley serve`; each given one overrides its serve.* setting.
struct serve_flags {
  std::string host;
  int port = -1;
  std::string token_file;
  std::string store;
  bool create_store = false;
  serve_cluster cluster;
};

int serve_command(const global_options& global, const serve_flags& flags) {
  auto settings = load_settings(global);
  auto& serve = settings.serve;
  if (!flags.host.empty())
    serve.host = flags.host;
  if (flags.port >= 0)
    serve.port = flags.port;
  if (!flags.token_file.empty())
    serve.token_file = flags.token_file;
  // The command line's file wins over the environment's token.
  const char* token =
      flags.token_file.empty() ? environment("PARLEY_API_TOKEN") : nullptr;
  auto store = actors::store::choose_store_url(flags.store, environment("PARLEY_STORE"),
                                              settings.store.url);
  return run_serve(settings, token != nullptr ? token : "", {store, flags.create_store},
                   flags.cluster, std::cout, std::cerr);
}

/// The --remote option of `run` and `bench`.
CLI::Option* add_remote_option(CLI::App* cmd, std::vector<std::string>& remotes) {
  return cmd
      ->add_option("--remote", remotes,
                   "HOST:PORT of a `parley node` to place rooms (and their "
                   "negotiations) on; repeat to spread rooms over several nodes")
      ->each([](const std::string& x) { cluster::parse_address(x); });
}

/// --serve and --serve-linger, for the commands whose run can be watched.
CLI::Option* add_watch_options(CLI::App* cmd, watch_flags& flags) {
  auto* serve =
      cmd->add_option("--serve", flags.address,
                      "While it runs, serve the HTTP API (docs/api.md) and the "
                      "dashboard over this run at [HOST:]PORT (HOST: serve.host; "
                      "port 0: any free one); where is printed on standard error")
          ->check([](const std::string& x) {
            try {
              with_address({}, x);
              return std::string{};
            } catch (const std::invalid_argument& e) {
              return std::string{e.what()};
            }
          });
  cmd->add_option("--serve-linger", flags.linger_s,
                  "With --serve: seconds the service stays up once the run has "
                  "ended (SIGINT or SIGTERM ends it sooner)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{86400}))
      ->needs(serve)
      ->capture_default_str();
  cmd->add_option("--serve-clients", flags.clients,
                  "With --serve: start the run once this many event-stream "
                  "clients are connected (at most 120 s later): a load test of "
                  "the streams (tools/sse_bench)")
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1000000}))
      ->needs(serve);
  return serve;
}

/// --tls-ca, --tls-cert and --tls-key, for the commands that connect nodes.
void add_tls_options(CLI::App* cmd, tls_flags& tls) {
  cmd->add_option("--tls-ca", tls.ca,
                  "PEM file of the CA whose certificates are accepted from peers "
                  "(cluster.tls_ca); with --tls-cert and --tls-key, connections "
                  "between nodes use mutual TLS (docs/cluster.md)");
  cmd->add_option("--tls-cert", tls.certificate,
                  "PEM certificate shown to peers, signed by the CA "
                  "(cluster.tls_certificate)");
  cmd->add_option("--tls-key", tls.key,
                  "Unencrypted PEM private key of --tls-cert (cluster.tls_key)");
}

} // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"Parley: an actor runtime for automated negotiation.\n"
               "Agents, rooms and negotiations are actors; timeouts are messages.",
               "parley"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string{"parley "} + runtime::version,
                       "Print the version (parley MAJOR.MINOR.PATCH) and exit");
  global_options global;
  app.add_option("--config", global.config_file,
                 "JSON file overriding config/parley.json's defaults "
                 "(PARLEY_* environment variables override both)")
      ->check(CLI::ExistingFile);
  app.add_option("--max-file-bytes", global.max_file_bytes,
                 "Refuse a --config or scenario file larger than this many bytes, "
                 "before reading it")
      ->check(CLI::Range(std::size_t{1} << 10, std::size_t{1} << 30))
      ->capture_default_str();

  demo_options demo;
  auto* demo_cmd = app.add_subcommand(
      "demo", "Two rule agents (a client and a freelancer) negotiate a website "
              "redesign; prints the timeline");
  demo_cmd->add_flag("--json", demo.json,
                     "Print JSON events, one per line, instead of a timeline");
  demo_cmd->add_option("--seed", demo.seed, "Seed for generated ids (default: random)")
      ->each([&demo](const std::string&) { demo.seed_given = true; });

  run_command_options run;
  auto* run_cmd = app.add_subcommand(
      "run", "Play a scenario file; writes one JSON event per line and a summary line "
             "(see docs/scenario.md)");
  run_cmd->add_option("SCENARIO", run.scenario_file, "Scenario file (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  auto* simulated =
      run_cmd->add_flag("--simulated-time", run.simulated_time,
                        "Virtual time on one thread: timeouts take no real time and "
                        "the same seed gives the same output byte for byte");
  run_cmd
      ->add_option("--seed", run.seed,
                   "Seed for generated ids (default: 1 with --simulated-time, "
                   "random otherwise)")
      ->each([&run](const std::string&) { run.seed_given = true; });
  run_cmd->add_option("--output,-o", run.output_file,
                      "Write the events to this file instead of standard output");
  add_remote_option(run_cmd, run.remotes)->excludes(simulated);
  add_tls_options(run_cmd, global.tls);
  add_watch_options(run_cmd, run.watch)->excludes(simulated);
  run_cmd->add_option("--audit", run.audit_file,
                      "Append the audit log (every bus event as a JSON line) to this "
                      "file (overrides audit.path)");
  run_cmd->add_option("--store", run.store,
                      "Also write every negotiation's record to this store: "
                      "a path or sqlite:PATH (SQLite), or postgresql://… "
                      "(query it with `parley stats`). A negotiation is written at "
                      "its end, or once it is store.settle_ms old (a second; with "
                      "--serve: at once)");

  bench_options bench;
  auto* bench_cmd = app.add_subcommand(
      "bench", "Load test: run a workload, verify every negotiation, print one result "
               "line (see BENCHMARKS.md)");
  std::string workload = "w1";
  bench_cmd
      ->add_option("--workload,-w", workload,
                   "w1: propose, counter, counter, accept (all agree); "
                   "w2: the responder never answers (all expire after 1 s); "
                   "ballots: ballots of 9 rule-agent voters, every strategy; "
                   "channels: multi-party channels of 10 rule-brain members, 3 rounds")
      ->check(CLI::IsMember({"w1", "w2", "ballots", "channels"}))
      ->capture_default_str();
  bench_cmd
      ->add_option("-n,--negotiations,--ballots,--channels", bench.negotiations,
                   "How many negotiations (one room and two agents each), or "
                   "ballots for --workload ballots, or channels for --workload "
                   "channels")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{100000000}))
      ->capture_default_str();
  bench_cmd->add_flag("--json", bench.json, "Print the result as one JSON object");
  add_remote_option(bench_cmd, bench.remotes);
  bench_cmd->add_option("--store", bench.store,
                        "Also write every record (negotiation, or channel and its "
                        "events) to this store (a path, sqlite:PATH or "
                        "postgresql://…); the clock stops once it has committed "
                        "the last one. A negotiation is written at its end, or "
                        "once it is store.settle_ms old (a second; with --serve: "
                        "at once)");
  add_tls_options(bench_cmd, global.tls);
  watch_flags bench_watch;
  add_watch_options(bench_cmd, bench_watch);

  tournament_options tournament;
  auto* tournament_cmd = app.add_subcommand(
      "tournament", "Play every strategy against every other and itself, as buyer and "
                    "seller, over every scenario of a spec; writes CSV tables and "
                    "report.html (see docs/tournament.md)");
  tournament_cmd->add_option("SPEC", tournament.spec_file, "Tournament spec (JSON)")
      ->required()
      ->check(CLI::ExistingFile);
  tournament_cmd
      ->add_option("--out,-o", tournament.out_dir,
                   "Folder for negotiations.csv, scores.csv, scenarios.csv "
                   "and report.html (made if missing)")
      ->required();
  tournament.jobs = std::max(1u, std::thread::hardware_concurrency());
  tournament_cmd
      ->add_option("--jobs,-j", tournament.jobs,
                   "Worker threads (default: one per core); the files do not "
                   "depend on it")
      ->check(CLI::Range(std::size_t{1}, std::size_t{256}));
  tournament_cmd
      ->add_option("--seed", tournament.seed,
                   "Seed of the noise and of the random strategy")
      ->capture_default_str();
  tournament_cmd->add_flag("--json", tournament.json,
                           "Print the result as one JSON object");

  runtime::node_options node;
  auto* node_cmd = app.add_subcommand(
      "node", "Serve rooms (and the negotiations they spawn) to remote callers "
              "(`run`/`bench --remote HOST:PORT`) until SIGTERM or SIGINT; with "
              "--tls-*, only to peers with a certificate from the CA");
  node_cmd->add_option("--port,-p", node.port, "Port to listen on (0: any free port)")
      ->capture_default_str();
  node_cmd
      ->add_option("--host", node.host,
                   "Address to listen on; one other than loopback needs TLS "
                   "(--tls-*) or --insecure")
      ->capture_default_str();
  add_tls_options(node_cmd, global.tls);
  node_cmd->add_flag("--insecure", node.insecure,
                     "Listen on a non-loopback --host without TLS, letting anyone "
                     "who reaches the port place rooms and negotiations (prints a "
                     "warning)");

  serve_flags serve;
  auto* serve_cmd = app.add_subcommand(
      "serve", "Serve the HTTP API (docs/api.md) until SIGTERM or SIGINT: agents, "
               "rooms and negotiations over JSON (default 127.0.0.1:8080)");
  serve_cmd->add_option("--host", serve.host,
                        "Address to listen on (serve.host); one other than loopback "
                        "needs a bearer token");
  serve_cmd
      ->add_option("--port,-p", serve.port,
                   "Port to listen on, 0 for any free one "
                   "(serve.port)")
      ->check(CLI::Range(0, 65535));
  serve_cmd
      ->add_option("--token-file", serve.token_file,
                   "File whose first line, trimmed, is the bearer token every "
                   "request must carry: at least 16 characters, else serve does "
                   "not start (serve.token_file; PARLEY_API_TOKEN gives the token "
                   "itself)")
      ->check(CLI::ExistingFile);
  serve_cmd->add_option("--store", serve.store,
                        "Where the records are committed before a move is answered: a "
                        "path, sqlite:PATH or postgresql://... (default: PARLEY_STORE, "
                        "else store.url, ./parley.db); on start, serve resumes the "
                        "agents, rooms and open negotiations it holds");
  serve_cmd->add_flag("--create-store", serve.create_store,
                      "Create the store if it is not there yet (a new SQLite file, or "
                      "the schema in an empty PostgreSQL database); without it serve "
                      "refuses to start on a missing or empty store (E028), so that a "
                      "store that vanished is never silently replaced by an empty one");
  auto* cluster_flag = serve_cmd->add_option(
      "--cluster", serve.cluster.name,
      "Join this cluster of nodes over one PostgreSQL store (docs/cluster.md, "
      "\"Membership\"): heartbeat its lease, take over dead members' open "
      "negotiations and channels, stop when the lease is lost, leave on SIGTERM");
  serve_cmd
      ->add_option("--node-id", serve.cluster.node_id,
                   "With --cluster: this node's id (default: the API's host:port)")
      ->needs(cluster_flag);
  serve_cmd
      ->add_option("--lease-ms", serve.cluster.lease_ms,
                   "With --cluster: the lease, renewed every lease/4 (default 2000)")
      ->check(CLI::Range(std::int64_t{100}, actors::store::max_lease_ms))
      ->needs(cluster_flag);
  auto* node_port_flag =
      serve_cmd
          ->add_option("--node-port", serve.cluster.node_port,
                       "With --cluster: open this CAF node port (0: any free one) "
                       "for the other nodes, which forward to this node the moves of "
                       "the negotiations it runs; every node forwards such moves to "
                       "the node that runs them (docs/cluster.md, \"Any node "
                       "answers\"); without it they are answered E030")
          ->check(CLI::Range(0, 65535))
          ->needs(cluster_flag);
  serve_cmd
      ->add_option("--node-host", serve.cluster.node_host,
                   "With --node-port: the address to open it on, as the other "
                   "nodes reach it (default 127.0.0.1; any other needs the TLS "
                   "files)")
      ->needs(node_port_flag);
  serve_cmd
      ->add_option_function<std::string>(
          "--placement",
          [&serve](const std::string& x) { serve.cluster.spread = x == "spread"; },
          "With --node-port: where a negotiation opened in a pair's own room runs: "
          "spread (default) on the live node that ranks first for the room by "
          "rendezvous hashing, forwarded there; local on the node it was opened "
          "through (docs/cluster.md, \"Placement\")")
      ->check(CLI::IsMember({"spread", "local"}))
      ->needs(node_port_flag);
  add_tls_options(serve_cmd, global.tls);
  store_commands store{app};
  cluster_commands cluster{app};

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? exit_ok : exit_usage;
  }

  try {
    if (*demo_cmd)
      return demo_command(global, demo);
    if (*node_cmd)
      return node_command(global, node);
    if (store.chosen())
      return store.run(load_settings(global), std::cout, std::cerr);
    if (cluster.chosen())
      return cluster.run(load_settings(global), std::cout, std::cerr);
    if (*serve_cmd)
      return serve_command(global, serve);
    if (*tournament_cmd) {
      tournament.progress = isatty(STDERR_FILENO) != 0;
      return tournament_command(tournament, global.max_file_bytes, std::cout,
                                std::cerr);
    }
    if (*bench_cmd) {
      bench.workload = workload == "w2" ? bench_workload::w2 : bench_workload::w1;
      bench.progress = isatty(STDERR_FILENO) != 0;
      return bench_command(global, bench, workload, bench_watch);
    }
    return run_command(global, run);
  } catch (const config::config_error& e) {
    std::cerr << "parley: configuration error: " << e.what() << "\n";
    return exit_usage;
  } catch (const scenario_error& e) {
    std::cerr << "parley: bad scenario: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::exception& e) {
    std::cerr << "parley: " << e.what() << "\n";
    return exit_failed;
  }
}

} // namespace parley::cli
