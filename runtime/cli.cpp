#include "runtime/cli.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include <CLI/CLI.hpp>

#include "config/loader.hpp"
#include "runtime/bench_ballots.hpp"
#include "runtime/demo.hpp"
#include "runtime/scenario.hpp"
#include "runtime/scenario_runner.hpp"

namespace parley::runtime {

namespace {

constexpr int exit_ok = 0;
constexpr int exit_failed = 1;
constexpr int exit_usage = 2;

struct global_options {
  std::string config_file;
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
  auto settings = config::load(global.config_file, no_environment);
  if (plan != nullptr)
    config::apply_overrides(settings, plan->config, plan_source + ": config");
  config::apply_environment(settings, environment);
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

struct run_command_options {
  std::string scenario_file;
  bool simulated_time = false;
  std::uint64_t seed = 1;
  bool seed_given = false;
  std::string output_file;
  std::string audit_file;
};

int run_command(const global_options& global, const run_command_options& options) {
  auto plan = load_scenario(options.scenario_file);
  auto settings = load_settings(global, &plan, options.scenario_file);
  if (!options.audit_file.empty())
    settings.audit.path = options.audit_file;
  run_options run;
  run.simulated_time = options.simulated_time;
  run.seed = options.seed_given || options.simulated_time ? options.seed : fresh_seed();
  run.format = output_format::json_lines;
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

struct bench_options {
  std::string workload = "ballots";
  std::int64_t ballots = 100000;
  bool json = false;
};

int bench_command(const bench_options& options) {
  // Only the ballots workload lives here for now (w1/w2 come with the bench
  // of the bilateral protocol).
  return run_ballot_bench(options.ballots, options.json, std::cout) == 0 ? exit_ok
                                                                         : exit_failed;
}

} // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{"Parley: an actor runtime for automated negotiation.\n"
               "Agents, rooms and negotiations are actors; timeouts are messages.",
               "parley"};
  app.require_subcommand(1);
  global_options global;
  app.add_option("--config", global.config_file,
                 "JSON file overriding config/parley.json's defaults "
                 "(PARLEY_* environment variables override both)")
      ->check(CLI::ExistingFile);

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
  run_cmd->add_option("--audit", run.audit_file,
                      "Append the audit log (every bus event as a JSON line) to this "
                      "file (overrides audit.path)");

  bench_options bench;
  auto* bench_cmd = app.add_subcommand(
      "bench", "Load test; prints one summary line, exits 1 on any wrong outcome");
  bench_cmd->add_option("--workload", bench.workload, "Workload: ballots")
      ->check(CLI::IsMember({"ballots"}));
  bench_cmd
      ->add_option("--ballots,-n", bench.ballots,
                   "Ballots to run (9 rule-agent voters each)")
      ->check(CLI::PositiveNumber);
  bench_cmd->add_flag("--json", bench.json, "Print the summary as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? exit_ok : exit_usage;
  }

  try {
    if (*demo_cmd)
      return demo_command(global, demo);
    if (*bench_cmd)
      return bench_command(bench);
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

} // namespace parley::runtime
