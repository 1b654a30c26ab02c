#include "tournament/report_sections.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "tournament/report_format.hpp"
#include "tournament/results.hpp"

namespace parley::tournament::report_detail {

namespace {

/// Returns the colour of `t` in [0, 1] on a light-to-dark sequential scale
/// (ColorBrewer's YlGnBu).
std::string report_shade(double t) {
  constexpr std::array<std::array<double, 3>, 5> stops{
      {{255, 255, 217}, {199, 233, 180}, {65, 182, 196}, {34, 94, 168}, {8, 29, 88}}};
  const auto scaled = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) *
                      static_cast<double>(stops.size() - 1);
  const auto lower = std::min(static_cast<std::size_t>(scaled), stops.size() - 2);
  const auto within = scaled - static_cast<double>(lower);
  char colour[8];
  std::array<int, 3> channels{};
  for (std::size_t c = 0; c < 3; ++c)
    channels[c] = static_cast<int>(
        std::lround(stops[lower][c] * (1.0 - within) + stops[lower + 1][c] * within));
  std::snprintf(colour, sizeof colour, "#%02x%02x%02x", channels[0], channels[1],
                channels[2]);
  return colour;
}

/// Returns the text colour readable on `report_shade(t)`.
const char* report_ink(double t) {
  return t > 0.55 ? "#fff" : "#111";
}

/// What the negotiations of strategy A against strategy B gave A.
struct report_pair_cell {
  double advantage_sum = 0.0;
  std::size_t count = 0;
  std::size_t agreements = 0;
};

/// The strategies × strategies grid of `report_pair_cell`s, row A column B.
struct report_pair_grid {
  std::size_t size = 0;
  std::vector<report_pair_cell> cells;

  report_pair_cell& at(std::size_t a, std::size_t b) { return cells[a * size + b]; }
  const report_pair_cell& at(std::size_t a, std::size_t b) const {
    return cells[a * size + b];
  }
};

/// Adds one negotiation's view for one side to `cell`.
void report_add_to_cell(report_pair_cell& cell, double advantage, bool agreement) {
  cell.advantage_sum += advantage;
  ++cell.count;
  if (agreement)
    ++cell.agreements;
}

/// Returns the pair grid: each negotiation counts for its buyer against its
/// seller (the first advantage) and for its seller against its buyer (the
/// second); a strategy against itself counts both in its diagonal cell.
report_pair_grid report_pairs_of(const tournament_results& r) {
  report_pair_grid grid;
  grid.size = r.strategies.size();
  grid.cells.resize(grid.size * grid.size);
  for (const auto& n : r.negotiations) {
    if (n.buyer_strategy >= grid.size || n.seller_strategy >= grid.size)
      continue;
    report_add_to_cell(grid.at(n.buyer_strategy, n.seller_strategy),
                       n.score.advantages.first, n.agreement);
    report_add_to_cell(grid.at(n.seller_strategy, n.buyer_strategy),
                       n.score.advantages.second, n.agreement);
  }
  return grid;
}

/// Writes one right-aligned numeric cell.
void write_report_number_cell(std::ostream& out, const std::string& text) {
  out << "<td class=\"n\">" << text << "</td>";
}

/// Writes one strategy's row of the scores table.
void write_report_score_row(std::ostream& out, const strategy_score& s) {
  // Without negotiations the statistics are defaults, not measurements.
  const bool measured = s.count > 0;
  const auto number = [measured](double x) {
    return measured ? report_decimal(x, 3) : std::string(report_no_value);
  };
  out << "<tr><th scope=\"row\">" << report_escaped(s.strategy) << "</th>";
  write_report_number_cell(out, report_grouped(s.count));
  write_report_number_cell(out, measured ? report_percent(s.agreement_rate)
                                         : std::string(report_no_value));
  for (double x : {s.advantage.mean, s.advantage.median, s.advantage.std_dev,
                   s.utility.mean, s.welfare, s.pareto_distance, s.nash_distance,
                   s.kalai_smorodinsky_distance, s.max_welfare_distance, s.rounds})
    write_report_number_cell(out, number(x));
  out << "</tr>\n";
}

/// One cell of a heatmap.
struct report_heat_cell {
  /// Shown in the cell.
  std::string text;
  /// Shown on hover.
  std::string title;
  /// Where the cell lies on the colour scale, [0, 1]; none for an empty cell.
  std::optional<double> shade;
};

/// Returns a CSS gradient showing the whole colour scale.
std::string report_ramp_gradient() {
  std::string gradient = "linear-gradient(to right";
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0})
    gradient += "," + report_shade(t);
  return gradient + ")";
}

/// Writes a legend line: `explanation`, then the colour scale from `low` to
/// `high`.
void write_report_heat_legend(std::ostream& out, std::string_view explanation,
                              const std::string& low, const std::string& high) {
  out << "<p class=\"legend\">" << explanation
      << "</p>\n<p class=\"legend\">Colour: " << low
      << "<span class=\"ramp\" style=\"background:" << report_ramp_gradient()
      << "\"></span>" << high << "</p>\n";
}

/// Writes a strategies × strategies table of `cells` (row-major).
void write_report_heat_table(std::ostream& out, const tournament_results& r,
                             const std::vector<report_heat_cell>& cells) {
  const auto n = r.strategies.size();
  out << "<table class=\"heat\">\n<thead><tr><th class=\"corner\">row vs "
         "column</th>";
  for (std::size_t b = 0; b < n; ++b)
    out << "<th class=\"col\" scope=\"col\">" << report_strategy_name(r, b) << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (std::size_t a = 0; a < n; ++a) {
    out << "<tr><th class=\"row\" scope=\"row\">" << report_strategy_name(r, a)
        << "</th>";
    for (std::size_t b = 0; b < n; ++b) {
      const auto& cell = cells[a * n + b];
      if (!cell.shade) {
        out << "<td class=\"empty\" title=\"" << cell.title << "\">" << report_no_value
            << "</td>";
        continue;
      }
      out << "<td style=\"background:" << report_shade(*cell.shade)
          << ";color:" << report_ink(*cell.shade) << "\" title=\"" << cell.title
          << "\">" << cell.text << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n</table>\n";
}

/// Returns "A vs B: ", the start of a heatmap cell's title.
std::string report_pair_title(const tournament_results& r, std::size_t a,
                              std::size_t b) {
  return report_strategy_name(r, a) + " vs " + report_strategy_name(r, b) + ": ";
}

/// Returns one heat cell per strategy pair of `grid`, row A and column B at
/// A * size + B, titled "A vs B: "; a pair that never met says so, any other
/// is completed by `fill(pair, a, cell)`.
template <class Fill>
std::vector<report_heat_cell> report_heat_cells(const tournament_results& r,
                                                const report_pair_grid& grid,
                                                Fill fill) {
  std::vector<report_heat_cell> cells(grid.cells.size());
  for (std::size_t a = 0; a < grid.size; ++a) {
    for (std::size_t b = 0; b < grid.size; ++b) {
      const auto& pair = grid.at(a, b);
      auto& cell = cells[a * grid.size + b];
      cell.title = report_pair_title(r, a, b);
      if (pair.count == 0)
        cell.title += "no negotiations";
      else
        fill(pair, a, cell);
    }
  }
  return cells;
}

/// Writes the payoff heatmap: row A, column B is A's mean advantage against B,
/// coloured from the lowest mean to the highest.
void write_report_payoff_heatmap(std::ostream& out, const tournament_results& r,
                                 const report_pair_grid& grid) {
  out << "<section id=\"payoff\">\n<h2>Payoff heatmap</h2>\n";
  if (grid.size == 0) {
    out << "<p class=\"note\">No strategies.</p>\n</section>\n";
    return;
  }
  std::optional<double> low;
  std::optional<double> high;
  for (const auto& cell : grid.cells) {
    if (cell.count == 0)
      continue;
    const auto mean = cell.advantage_sum / static_cast<double>(cell.count);
    if (!std::isfinite(mean))
      continue;
    low = std::min(low.value_or(mean), mean);
    high = std::max(high.value_or(mean), mean);
  }
  const auto spread = high.value_or(0.0) - low.value_or(0.0);
  const auto cells =
      report_heat_cells(r, grid, [&](const auto& pair, std::size_t a, auto& cell) {
        const auto mean = pair.advantage_sum / static_cast<double>(pair.count);
        cell.text = report_decimal(mean, 2);
        cell.title += report_decimal(mean, 3) + " (mean advantage of " +
                      report_strategy_name(r, a) + " over " +
                      report_counted(pair.count, "negotiation", "negotiations") + ")";
        // Equal means (or one cell) sit mid-scale.
        cell.shade = !std::isfinite(mean) ? 0.0
                     : spread > 0.0       ? (mean - low.value_or(0.0)) / spread
                                          : 0.5;
      });
  write_report_heat_legend(
      out,
      "Row strategy A against column strategy B: A's mean advantage over their "
      "negotiations, A as buyer and as seller; – where they never met.",
      low ? report_decimal(*low, 2) : std::string(report_no_value),
      high ? report_decimal(*high, 2) : std::string(report_no_value));
  write_report_heat_table(out, r, cells);
  out << "</section>\n";
}

/// Writes the agreement heatmap: row A, column B is the agreement rate of A's
/// negotiations against B, coloured from 0% to 100%.
void write_report_agreement_heatmap(std::ostream& out, const tournament_results& r,
                                    const report_pair_grid& grid) {
  out << "<section id=\"agreement\">\n<h2>Agreement heatmap</h2>\n";
  if (grid.size == 0) {
    out << "<p class=\"note\">No strategies.</p>\n</section>\n";
    return;
  }
  const auto cells =
      report_heat_cells(r, grid, [](const auto& pair, std::size_t, auto& cell) {
        const auto rate =
            static_cast<double>(pair.agreements) / static_cast<double>(pair.count);
        cell.text = report_decimal(100.0 * rate, 0) + "%";
        cell.title += report_percent(rate) + " agreements (" +
                      report_grouped(pair.agreements) + " of " +
                      report_counted(pair.count, "negotiation", "negotiations") + ")";
        cell.shade = rate;
      });
  write_report_heat_legend(out,
                           "Row strategy A against column strategy B: the share "
                           "of their negotiations that reached an agreement, A as "
                           "buyer and as seller; – where they never met.",
                           "0%", "100%");
  write_report_heat_table(out, r, cells);
  out << "</section>\n";
}

} // namespace

void write_report_header(std::ostream& out, const tournament_results& r) {
  std::size_t agreements = 0;
  for (const auto& n : r.negotiations)
    if (n.agreement)
      ++agreements;
  out << "<header>\n<h1>Parley tournament</h1>\n<p class=\"summary\">"
      << report_counted(r.strategies.size(), "strategy", "strategies") << " · "
      << report_counted(r.scenarios.size(), "scenario", "scenarios") << " · "
      << report_counted(r.negotiations.size(), "negotiation", "negotiations")
      << " · seed " << std::to_string(r.seed) << " · agreement rate <strong>"
      << report_percent_of(agreements, r.negotiations.size()) << "</strong> ("
      << report_counted(agreements, "agreement", "agreements") << ")</p>\n"
      << "<nav><a href=\"#scores\">Scores</a><a href=\"#payoff\">Payoff heatmap</a>"
         "<a href=\"#agreement\">Agreement heatmap</a>"
         "<a href=\"#scenarios\">Scenarios</a>"
         "<a href=\"#traces\">Concession traces</a></nav>\n</header>\n";
}

void write_report_scores(std::ostream& out, const tournament_results& r) {
  out << "<section id=\"scores\">\n<h2>Scores</h2>\n";
  if (r.scores.empty()) {
    out << "<p class=\"note\">No scores.</p>\n</section>\n";
    return;
  }
  out << "<p class=\"note\">Per strategy, over every negotiation it played in "
         "either role (a strategy against itself counts twice). Advantage: "
         "(u − r) / (ideal − r), 0 without an agreement. Distances: the mean "
         "Euclidean distance in utility space to the Pareto frontier and to each "
         "bargaining solution.</p>\n"
         "<table class=\"scores\">\n<thead><tr><th rowspan=\"2\">strategy</th>"
         "<th rowspan=\"2\">negotiations</th><th rowspan=\"2\">agreement rate</th>"
         "<th colspan=\"3\">advantage</th><th rowspan=\"2\">utility mean</th>"
         "<th rowspan=\"2\">welfare mean</th><th colspan=\"4\">mean distance to</th>"
         "<th rowspan=\"2\">mean rounds</th></tr>\n<tr><th>mean</th><th>median</th>"
         "<th>std</th><th>Pareto</th><th>Nash</th><th>Kalai–Smorodinsky</th>"
         "<th>max welfare</th></tr></thead>\n<tbody>\n";
  for (const auto& s : r.scores)
    write_report_score_row(out, s);
  out << "</tbody>\n</table>\n</section>\n";
}

void write_report_heatmaps(std::ostream& out, const tournament_results& r) {
  const auto grid = report_pairs_of(r);
  write_report_payoff_heatmap(out, r, grid);
  write_report_agreement_heatmap(out, r, grid);
}

} // namespace parley::tournament::report_detail
