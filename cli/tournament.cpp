#include "cli/tournament.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/exit_codes.hpp"
#include "cli/process_stats.hpp"
#include "messages/input_limits.hpp"
#include "tournament/report.hpp"
#include "tournament/runner.hpp"
#include "tournament/spec.hpp"
#include "tournament/tables.hpp"

namespace parley::cli {

namespace {

/// Draws the bar of a running tournament, as the bench's.
void draw_tournament_progress(std::ostream& err, std::size_t done, std::size_t total) {
  auto percent = total == 0 ? 100 : done * 100 / total;
  std::string bar(percent / 2, '#');
  bar.resize(50, ' ');
  err << "\r[" << bar << "] " << percent << "% " << done << "/" << total
      << " negotiations" << std::flush;
  if (done == total)
    err << '\n';
}

/// Writes `name` in `dir` with `write`; returns its size, or throws
/// std::runtime_error naming the file.
template <class Write>
std::uintmax_t write_output(const std::filesystem::path& dir, const char* name,
                            Write write) {
  auto path = dir / name;
  std::ofstream file{path, std::ios::binary};
  if (!file)
    throw std::runtime_error("cannot write " + path.string());
  write(file);
  file.close();
  if (!file)
    throw std::runtime_error("cannot write " + path.string());
  return std::filesystem::file_size(path);
}

} // namespace

int tournament_command(const tournament_options& options, std::size_t max_file_bytes,
                       std::ostream& out, std::ostream& err) {
  auto started = std::chrono::steady_clock::now();
  auto file = messages::read_text_file(options.spec_file, max_file_bytes);
  if (!file.error.empty()) {
    err << "parley: bad tournament spec: " << options.spec_file << ": " << file.error
        << "\n";
    return exit_usage;
  }
  tournament::tournament_spec spec;
  try {
    spec = tournament::parse_spec(file.text);
  } catch (const tournament::spec_error& e) {
    err << "parley: bad tournament spec: " << options.spec_file << ": " << e.what()
        << "\n";
    return exit_usage;
  }
  std::filesystem::path dir{options.out_dir};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    err << "parley: cannot make the output folder " << dir.string() << ": "
        << ec.message() << "\n";
    return exit_usage;
  }

  tournament::run_options run;
  run.jobs = options.jobs;
  run.seed = options.seed;
  if (options.progress)
    run.progress = [&err](std::size_t done, std::size_t total) {
      draw_tournament_progress(err, done, total);
    };
  auto results = tournament::run_tournament(spec, run);
  results.scores = tournament::compute_scores(results);
  write_output(dir, "negotiations.csv", [&](std::ostream& o) {
    tournament::write_negotiations_csv(results, o);
  });
  write_output(dir, "scores.csv",
               [&](std::ostream& o) { tournament::write_scores_csv(results, o); });
  write_output(dir, "scenarios.csv",
               [&](std::ostream& o) { tournament::write_scenarios_csv(results, o); });
  auto report_bytes = write_output(dir, "report.html", [&](std::ostream& o) {
    tournament::write_report(results, o);
  });

  auto seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  auto n = results.negotiations.size();
  std::size_t agreements = 0;
  for (const auto& x : results.negotiations)
    agreements += x.agreement ? 1 : 0;
  auto rate = static_cast<double>(n) / seconds;
  auto stats = read_process_stats();
  if (options.json) {
    nlohmann::json j = {{"n", n},
                        {"strategies", spec.players.size()},
                        {"scenarios", spec.scenarios.size()},
                        {"repetitions", spec.repetitions},
                        {"jobs", options.jobs},
                        {"seed", options.seed},
                        {"seconds", seconds},
                        {"negotiations_per_s", rate},
                        {"agreements", agreements},
                        {"cpu_s", stats.cpu_s},
                        {"peak_rss_kb", stats.peak_rss_kb},
                        {"report_bytes", report_bytes},
                        {"out", dir.string()}};
    out << j.dump() << "\n";
  } else {
    out << "TOURNAMENT N=" << n << " strategies=" << spec.players.size()
        << " scenarios=" << spec.scenarios.size() << " repetitions=" << spec.repetitions
        << " jobs=" << options.jobs << " seed=" << options.seed
        << " seconds=" << fixed(seconds, 3)
        << " negotiations_per_s=" << static_cast<long long>(rate + 0.5)
        << " agreements=" << agreements << " cpu_s=" << fixed(stats.cpu_s, 3)
        << " peak_rss_kb=" << stats.peak_rss_kb << " report_bytes=" << report_bytes
        << " out=" << dir.string() << "\n";
  }
  return exit_ok;
}

} // namespace parley::cli
