#include "tournament/report_sections.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "outcomes/point.hpp"
#include "tournament/report_format.hpp"
#include "tournament/report_svg.hpp"
#include "tournament/results.hpp"

namespace parley::tournament::report_detail {

namespace {

/// At most this many grey outcome dots per scenario (frontier points extra).
constexpr std::size_t report_max_outcome_dots = 1500;
/// At most this many agreement circles per scenario, the largest counts first.
constexpr std::size_t report_max_landing_circles = 1000;

/// Returns utility point `u` in tenths of a pixel of `frame`.
report_pixel report_pixel_of(const report_plot_frame& frame, outcomes::point u) {
  return {report_tenths_of(frame.x_at(u.first)),
          report_tenths_of(frame.y_at(u.second))};
}

/// Returns whether both utilities of `u` are finite.
bool report_finite(outcomes::point u) {
  return std::isfinite(u.first) && std::isfinite(u.second);
}

/// Returns a path of zero-length segments, drawn as dots by a round line cap.
std::string report_dot_path(const std::vector<report_pixel>& pixels) {
  std::string path;
  path.reserve(pixels.size() * 14);
  for (const auto& [x, y] : pixels) {
    path += 'M';
    path += report_tenths_text(x);
    path += ' ';
    path += report_tenths_text(y);
    path += "h0";
  }
  return path;
}

/// Returns how many of `negotiations` reached an agreement.
std::size_t
report_agreement_count(const std::vector<const negotiation_result*>& negotiations) {
  return static_cast<std::size_t>(
      std::count_if(negotiations.begin(), negotiations.end(),
                    [](const negotiation_result* n) { return n->agreement; }));
}

/// Agreements that landed on one utility point (rounded to 3 decimals).
struct report_landing {
  outcomes::point at;
  std::size_t count = 0;
};

/// Returns where the agreements among `negotiations` landed, one entry per
/// distinct utility point rounded to 3 decimals, the largest count first
/// (ties by point).
std::vector<report_landing>
report_landings_of(const std::vector<const negotiation_result*>& negotiations) {
  std::map<std::pair<long long, long long>, std::size_t> counts;
  for (const auto* n : negotiations) {
    const auto u = n->score.utilities;
    if (!n->agreement || !report_finite(u))
      continue;
    ++counts[{std::llround(std::clamp(u.first, 0.0, 1.0) * 1000.0),
              std::llround(std::clamp(u.second, 0.0, 1.0) * 1000.0)}];
  }
  std::vector<report_landing> landings;
  landings.reserve(counts.size());
  for (const auto& [key, count] : counts)
    landings.push_back({{static_cast<double>(key.first) / 1000.0,
                         static_cast<double>(key.second) / 1000.0},
                        count});
  std::stable_sort(landings.begin(), landings.end(),
                   [](const report_landing& a, const report_landing& b) {
                     return a.count > b.count;
                   });
  return landings;
}

/// What a scatter drew of what there was.
struct report_scatter_counts {
  std::size_t dots_drawn = 0;
  std::size_t dots_distinct = 0;
  std::size_t landings_drawn = 0;
  std::size_t landings_distinct = 0;
};

/// Returns the scenario's frontier outcomes (valid indices, finite points),
/// sorted by the buyer's utility, then the seller's.
std::vector<outcomes::point> report_frontier_points(const scenario_summary& s) {
  std::vector<outcomes::point> frontier;
  for (auto i : s.frontier)
    if (i < s.outcomes.size() && report_finite(s.outcomes[i]))
      frontier.push_back(s.outcomes[i]);
  std::sort(frontier.begin(), frontier.end());
  return frontier;
}

/// Returns the distinct pixels of `points` in `frame`, sorted.
std::vector<report_pixel>
report_distinct_pixels(const report_plot_frame& frame,
                       const std::vector<outcomes::point>& points) {
  std::vector<report_pixel> pixels;
  pixels.reserve(points.size());
  for (const auto& u : points)
    if (report_finite(u))
      pixels.push_back(report_pixel_of(frame, u));
  std::sort(pixels.begin(), pixels.end());
  pixels.erase(std::unique(pixels.begin(), pixels.end()), pixels.end());
  return pixels;
}

/// Returns the distinct pixels of the outcomes off the frontier's pixels.
std::vector<report_pixel>
report_outcome_pixels(const report_plot_frame& frame, const scenario_summary& s,
                      const std::vector<report_pixel>& frontier_pixels) {
  auto pixels = report_distinct_pixels(frame, s.outcomes);
  std::vector<report_pixel> off_frontier;
  off_frontier.reserve(pixels.size());
  std::set_difference(pixels.begin(), pixels.end(), frontier_pixels.begin(),
                      frontier_pixels.end(), std::back_inserter(off_frontier));
  return off_frontier;
}

/// Returns `pixels` at the positions `positions`.
std::vector<report_pixel> report_pixels_at(const std::vector<report_pixel>& pixels,
                                           const std::vector<std::size_t>& positions) {
  std::vector<report_pixel> picked;
  picked.reserve(positions.size());
  for (auto i : positions)
    picked.push_back(pixels[i]);
  return picked;
}

/// Writes the axes of a utility plot: the frame, grid lines and tick labels at
/// 0, 0.5 and 1 on both axes, and the axis titles.
void write_report_utility_axes(std::ostream& out, const report_plot_frame& frame) {
  write_report_y_axis(out, frame);
  const std::array<std::pair<double, const char*>, 3> ticks{
      {{0.0, "0"}, {0.5, "0.5"}, {1.0, "1"}}};
  for (const auto& [u, label] : ticks) {
    const auto x = report_px(frame.x_at(u));
    out << "<line class=\"grid\" x1=\"" << x << "\" y1=\"" << report_px(frame.top)
        << "\" x2=\"" << x << "\" y2=\"" << report_px(frame.bottom()) << "\"/>";
    out << "<text x=\"" << x << "\" y=\"" << report_px(frame.bottom() + 15)
        << "\" text-anchor=\"middle\">" << label << "</text>";
  }
  out << "<text class=\"title\" x=\"" << report_px(frame.left + frame.width / 2)
      << "\" y=\"" << report_px(frame.bottom() + 33)
      << "\" text-anchor=\"middle\">buyer utility</text>";
  out << "<text class=\"title\" transform=\"translate(" << report_px(frame.left - 34)
      << "," << report_px(frame.top + frame.height / 2)
      << ") rotate(-90)\" text-anchor=\"middle\">seller utility</text>";
}

/// Writes a dashed vertical line across `frame` at utility `u`, if finite.
void write_report_dashed_column(std::ostream& out, const report_plot_frame& frame,
                                double u, const char* colour) {
  if (!std::isfinite(u))
    return;
  const auto x = report_px(frame.x_at(u));
  out << "<line x1=\"" << x << "\" y1=\"" << report_px(frame.top) << "\" x2=\"" << x
      << "\" y2=\"" << report_px(frame.bottom()) << "\" stroke=\"" << colour
      << "\" stroke-dasharray=\"5 4\"/>";
}

/// How one bargaining solution is marked.
struct report_solution_mark {
  const char* label;
  std::vector<std::size_t> scenario_summary::*indices;
  /// 'd' diamond, 't' triangle, 's' square, 'x' cross.
  char shape;
  /// The SVG presentation attributes of its symbol.
  const char* attributes;
};

/// The bargaining solutions, in the legend's order.
constexpr std::array<report_solution_mark, 4> report_solution_marks{{
    {"Nash", &scenario_summary::nash, 'd',
     "fill=\"#d7191c\" stroke=\"#fff\" stroke-width=\"1\""},
    {"Kalai–Smorodinsky", &scenario_summary::kalai_smorodinsky, 't',
     "fill=\"none\" stroke=\"#7b3294\" stroke-width=\"2\""},
    {"egalitarian", &scenario_summary::egalitarian, 's',
     "fill=\"none\" stroke=\"#1a9641\" stroke-width=\"2\""},
    {"max welfare", &scenario_summary::max_welfare, 'x',
     "fill=\"none\" stroke=\"#e66101\" stroke-width=\"2.5\""},
}};

/// Returns the path of `shape` (see `report_solution_mark`) centred on (x, y).
std::string report_symbol_path(char shape, double x, double y) {
  switch (shape) {
  case 'd':
    return "M" + report_px(x) + " " + report_px(y - 7) + "l7 7-7 7-7-7z";
  case 't':
    return "M" + report_px(x) + " " + report_px(y - 7) + "l6.5 11h-13z";
  case 's':
    return "M" + report_px(x - 5) + " " + report_px(y - 5) + "h10v10h-10z";
  default:
    return "M" + report_px(x - 5) + " " + report_px(y - 5) + "l10 10m0-10l-10 10";
  }
}

/// Returns the first outcome of a solution, if it has a valid one.
std::optional<outcomes::point> report_solution_point(const scenario_summary& s,
                                                     const report_solution_mark& mark) {
  const auto& indices = s.*mark.indices;
  if (indices.empty() || indices.front() >= s.outcomes.size() ||
      !report_finite(s.outcomes[indices.front()]))
    return std::nullopt;
  return s.outcomes[indices.front()];
}

/// Returns "(0.600, 0.400)".
std::string report_point_text(outcomes::point u) {
  return "(" + report_decimal(u.first, 3) + ", " + report_decimal(u.second, 3) + ")";
}

/// Writes the symbols of the bargaining solutions the scenario has.
void write_report_solution_symbols(std::ostream& out, const report_plot_frame& frame,
                                   const scenario_summary& s) {
  for (const auto& mark : report_solution_marks) {
    const auto u = report_solution_point(s, mark);
    if (!u)
      continue;
    out << "<path d=\""
        << report_symbol_path(mark.shape, frame.x_at(u->first), frame.y_at(u->second))
        << "\" " << mark.attributes << "><title>" << mark.label << " "
        << report_point_text(*u) << "</title></path>";
  }
}

/// The colour of the agreement circles.
constexpr const char* report_landing_colour = "#2c7fb8";

/// Writes one circle per landing, its area proportional to its count (at
/// least a pixel across), the largest first so that smaller ones stay on top.
void write_report_landing_circles(std::ostream& out, const report_plot_frame& frame,
                                  const std::vector<report_landing>& landings,
                                  std::size_t drawn) {
  if (drawn == 0)
    return;
  const auto largest = static_cast<double>(landings.front().count);
  out << "<g fill=\"" << report_landing_colour << "\" fill-opacity=\".3\" stroke=\""
      << report_landing_colour << "\" stroke-width=\".8\">";
  for (std::size_t i = 0; i < drawn; ++i) {
    const auto& landing = landings[i];
    const auto radius =
        std::max(1.0, 10.0 * std::sqrt(static_cast<double>(landing.count) / largest));
    out << "<circle cx=\"" << report_px(frame.x_at(landing.at.first)) << "\" cy=\""
        << report_px(frame.y_at(landing.at.second)) << "\" r=\"" << report_px(radius)
        << "\"><title>" << report_counted(landing.count, "agreement", "agreements")
        << " at " << report_point_text(landing.at) << "</title></circle>";
  }
  out << "</g>";
}

/// Writes the legend of a utility plot, rows from (x, y) down.
void write_report_scatter_legend(std::ostream& out, double x, double y,
                                 const scenario_summary& s,
                                 const std::vector<report_landing>& landings) {
  const auto text_at = [&out, x](double row_y, const std::string& text) {
    out << "<text x=\"" << report_px(x + 16) << "\" y=\"" << report_px(row_y + 4)
        << "\">" << text << "</text>";
  };
  out << "<path d=\"M" << report_px(x + 6) << " " << report_px(y)
      << "h0\" stroke=\"#a5abb3\" stroke-width=\"3\" stroke-linecap=\"round\"/>";
  text_at(y, "outcome");
  y += 20;
  out << "<path d=\"M" << report_px(x) << " " << report_px(y)
      << "h12\" stroke=\"#222\" stroke-width=\"1.5\"/>";
  text_at(y, "Pareto frontier");
  y += 20;
  out << "<path d=\"M" << report_px(x) << " " << report_px(y)
      << "h12\" stroke=\"#777\" stroke-dasharray=\"4 3\"/>";
  text_at(y, "reservation " + report_point_text(s.reservation));
  for (const auto& mark : report_solution_marks) {
    y += 20;
    out << "<path d=\"" << report_symbol_path(mark.shape, x + 6, y) << "\" "
        << mark.attributes << "/>";
    const auto u = report_solution_point(s, mark);
    text_at(y, std::string(mark.label) + " " +
                   (u ? report_point_text(*u) : std::string("none")));
  }
  y += 22;
  out << "<circle cx=\"" << report_px(x + 6) << "\" cy=\"" << report_px(y)
      << "\" r=\"6\" fill=\"" << report_landing_colour
      << "\" fill-opacity=\".3\" stroke=\"" << report_landing_colour << "\"/>";
  text_at(y, "agreements, area ∝ count");
  if (!landings.empty()) {
    y += 18;
    text_at(y, "largest: " +
                   report_counted(landings.front().count, "agreement", "agreements"));
  }
}

/// Writes the scenario's utility space as an SVG scatter and returns what it
/// drew. `s` must have outcomes.
report_scatter_counts
write_report_utility_scatter(std::ostream& out, const scenario_summary& s,
                             const std::vector<report_landing>& landings) {
  const report_plot_frame frame{52, 12, 270, 270};
  const auto frontier = report_frontier_points(s);
  const auto frontier_pixels = report_distinct_pixels(frame, frontier);
  const auto outcome_pixels = report_outcome_pixels(frame, s, frontier_pixels);
  // The frontier is always drawn whole; the other outcomes fill the budget.
  const auto dot_budget = report_max_outcome_dots > frontier_pixels.size()
                              ? report_max_outcome_dots - frontier_pixels.size()
                              : std::size_t{0};
  const auto dots = report_pixels_at(
      outcome_pixels, report_even_sample(outcome_pixels.size(), dot_budget));

  report_scatter_counts counts;
  counts.dots_drawn = dots.size() + frontier_pixels.size();
  counts.dots_distinct = outcome_pixels.size() + frontier_pixels.size();
  counts.landings_distinct = landings.size();
  counts.landings_drawn = std::min(landings.size(), report_max_landing_circles);

  out << "<svg width=\"550\" height=\"325\" "
         "viewBox=\"0 0 550 325\" role=\"img\" aria-label=\"utility space of "
      << report_escaped(s.name) << "\">";
  write_report_utility_axes(out, frame);
  if (!dots.empty())
    out << "<path d=\"" << report_dot_path(dots)
        << "\" stroke=\"#a5abb3\" stroke-width=\"2.6\" stroke-linecap=\"round\"/>";
  write_report_dashed_column(out, frame, s.reservation.first, "#777");
  write_report_dashed_row(out, frame, s.reservation.second, "#777");
  // The frontier goes over the agreement circles, which would hide it.
  write_report_landing_circles(out, frame, landings, counts.landings_drawn);
  if (!frontier.empty()) {
    std::vector<report_pixel> line;
    line.reserve(frontier.size());
    for (const auto& u : frontier)
      line.push_back(report_pixel_of(frame, u));
    out << "<polyline points=\"" << report_polyline_points(line)
        << "\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" "
           "stroke-linejoin=\"round\"/>";
    out << "<path d=\"" << report_dot_path(frontier_pixels)
        << "\" stroke=\"#222\" stroke-width=\"3\" stroke-linecap=\"round\"/>";
  }
  write_report_solution_symbols(out, frame, s);
  write_report_scatter_legend(out, frame.right() + 18, frame.top + 8, s, landings);
  out << "</svg>\n";
  return counts;
}

/// Writes one scenario's block: its utility space, then a line of facts and
/// notes on what was left out.
void write_report_scenario(std::ostream& out, const scenario_summary& s,
                           std::size_t index,
                           const std::vector<const negotiation_result*>& negotiations) {
  out << "<section class=\"scenario\" id=\"scenario-" << std::to_string(index + 1)
      << "\">\n<h3>" << report_scenario_title(index, s) << "</h3>\n";
  const auto landings = report_landings_of(negotiations);
  std::optional<report_scatter_counts> counts;
  if (s.outcomes.empty())
    out << "<p class=\"note\">No outcomes: nothing to plot.</p>\n";
  else
    counts = write_report_utility_scatter(out, s, landings);
  out << "<p class=\"facts\">"
      << report_counted(s.outcomes.size(), "outcome", "outcomes") << " · frontier "
      << report_grouped(s.frontier.size()) << " · opposition "
      << report_decimal(s.opposition, 3) << " · "
      << report_counted(report_agreement_count(negotiations), "agreement", "agreements")
      << " of " << report_counted(negotiations.size(), "negotiation", "negotiations")
      << "</p>\n";
  if (!s.outcomes.empty() && s.frontier.empty())
    out << "<p class=\"note\">No rational outcome: no Pareto frontier.</p>\n";
  if (counts && counts->dots_drawn < counts->dots_distinct)
    out << "<p class=\"note\">Outcome dots: an even sample of "
        << report_grouped(counts->dots_drawn) << " of "
        << report_grouped(counts->dots_distinct)
        << " distinct positions, every frontier point included.</p>\n";
  if (counts && counts->landings_drawn < counts->landings_distinct)
    out << "<p class=\"note\">Agreement circles: the "
        << report_grouped(counts->landings_drawn) << " most frequent of "
        << report_grouped(counts->landings_distinct) << " distinct points.</p>\n";
  out << "</section>\n";
}

} // namespace

void write_report_scenarios(
    std::ostream& out, const tournament_results& r,
    const std::vector<std::vector<const negotiation_result*>>& by_scenario) {
  out << "<section id=\"scenarios\">\n<h2>Scenarios</h2>\n";
  if (r.scenarios.empty())
    out << "<p class=\"note\">No scenarios.</p>\n";
  else
    out << "<p class=\"note\">Each scenario's utility space: every outcome (grey), "
           "the Pareto frontier of the rational outcomes, the reservation values "
           "the scenario states (dashed), the bargaining solutions, and where the "
           "agreements landed (blue circles, area proportional to the number of "
           "agreements at that point; hover for the count).</p>\n";
  out << "<div class=\"scenarios\">\n";
  for (std::size_t i = 0; i < r.scenarios.size(); ++i)
    write_report_scenario(out, r.scenarios[i], i, by_scenario[i]);
  out << "</div>\n</section>\n";
}

} // namespace parley::tournament::report_detail
