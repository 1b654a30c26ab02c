#include "tournament/report_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
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

/// At most this many concession traces per scenario.
constexpr std::size_t report_traces_per_scenario = 4;
/// A trace with at least this many offers shows a concession.
constexpr std::size_t report_trace_preferred_offers = 3;
/// At most this many offers drawn per trace; longer traces are sampled.
constexpr std::size_t report_max_trace_offers = 100;

/// The colours of the buyer's and the seller's utility in a trace.
constexpr const char* report_buyer_colour = "#2166ac";
constexpr const char* report_seller_colour = "#e66101";

/// Returns up to `report_traces_per_scenario` negotiations with a trace, each
/// of a different (buyer strategy, seller strategy) pair, the first pairs in
/// the given order; a pair's first negotiation with at least
/// `report_trace_preferred_offers` offers is preferred. In index order.
std::vector<const negotiation_result*>
report_pick_traces(const std::vector<const negotiation_result*>& negotiations) {
  std::vector<const negotiation_result*> picked;
  std::vector<std::pair<std::size_t, std::size_t>> pairs;
  const auto pick_pass = [&](std::size_t min_offers) {
    for (const auto* n : negotiations) {
      if (picked.size() >= report_traces_per_scenario)
        return;
      const std::pair pair{n->buyer_strategy, n->seller_strategy};
      if (n->trace.empty() || n->trace.size() < min_offers ||
          std::find(pairs.begin(), pairs.end(), pair) != pairs.end())
        continue;
      pairs.push_back(pair);
      picked.push_back(n);
    }
  };
  pick_pass(report_trace_preferred_offers);
  pick_pass(1);
  std::stable_sort(picked.begin(), picked.end(),
                   [](const negotiation_result* a, const negotiation_result* b) {
                     return a->index < b->index;
                   });
  return picked;
}

/// Writes one party's offers among those at `positions` of a trace: a
/// polyline of their utility to that party (`party`: &outcomes::point::first
/// for the buyer), a concession curve, with a marker per offer.
void write_report_trace_line(std::ostream& out, const report_plot_frame& frame,
                             const std::vector<offer_point>& trace,
                             const std::vector<std::size_t>& positions, role by,
                             double outcomes::point::*party, const char* colour) {
  const auto x_of = [&](std::size_t k) {
    return trace.size() == 1 ? frame.x_at(0.5)
                             : frame.x_at(static_cast<double>(k) /
                                          static_cast<double>(trace.size() - 1));
  };
  std::vector<report_pixel> line;
  line.reserve(positions.size());
  for (auto k : positions) {
    if (trace[k].by != by)
      continue;
    const auto u = trace[k].utilities.*party;
    line.push_back({report_tenths_of(x_of(k)),
                    report_tenths_of(frame.y_at(std::isfinite(u) ? u : 0.0))});
  }
  if (line.empty())
    return;
  out << "<polyline points=\"" << report_polyline_points(line)
      << "\" fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\"/>";
  out << "<g fill=\"" << colour << "\">";
  for (const auto& [x, y] : line)
    out << "<circle cx=\"" << report_tenths_text(x) << "\" cy=\""
        << report_tenths_text(y) << "\" r=\"2.4\"/>";
  out << "</g>";
}

/// Writes the x axis of a trace chart: ticks at the first and last offer.
void write_report_trace_x_axis(std::ostream& out, const report_plot_frame& frame,
                               std::size_t offers) {
  const auto tick = [&](double x, const std::string& label) {
    out << "<text x=\"" << report_px(x) << "\" y=\"" << report_px(frame.bottom() + 14)
        << "\" text-anchor=\"middle\">" << label << "</text>";
  };
  if (offers == 1) {
    tick(frame.x_at(0.5), "1");
  } else {
    tick(frame.left, "1");
    tick(frame.right(), report_grouped(offers));
  }
  out << "<text x=\"" << report_px(frame.left + frame.width / 2) << "\" y=\""
      << report_px(frame.bottom() + 14) << "\" text-anchor=\"middle\">offer</text>";
}

/// Writes one negotiation's concession trace as a small line chart with a
/// caption.
void write_report_trace_chart(std::ostream& out, const tournament_results& r,
                              const negotiation_result& n) {
  const report_plot_frame frame{30, 8, 230, 100};
  const auto positions = report_even_sample(n.trace.size(), report_max_trace_offers);
  out << "<figure><svg width=\"270\" "
         "height=\"132\" viewBox=\"0 0 270 132\" role=\"img\" "
         "aria-label=\"concession trace\">";
  write_report_y_axis(out, frame);
  write_report_trace_x_axis(out, frame, n.trace.size());
  write_report_dashed_row(out, frame, n.reservation.first, report_buyer_colour);
  write_report_dashed_row(out, frame, n.reservation.second, report_seller_colour);
  write_report_trace_line(out, frame, n.trace, positions, role::buyer,
                          &outcomes::point::first, report_buyer_colour);
  write_report_trace_line(out, frame, n.trace, positions, role::seller,
                          &outcomes::point::second, report_seller_colour);
  out << "</svg>\n<figcaption>buyer <b>" << report_strategy_name(r, n.buyer_strategy)
      << "</b> vs seller <b>" << report_strategy_name(r, n.seller_strategy) << "</b>: "
      << (n.status.empty() ? std::string(report_no_value) : report_escaped(n.status))
      << " after "
      << report_counted(n.rounds > 0 ? static_cast<std::size_t>(n.rounds) : 0, "round",
                        "rounds");
  if (positions.size() < n.trace.size())
    out << " (" << report_grouped(positions.size()) << " of "
        << report_grouped(n.trace.size()) << " offers drawn)";
  out << "</figcaption></figure>\n";
}

/// Writes the legend of the concession traces.
void write_report_trace_legend(std::ostream& out) {
  out << "<p class=\"legend\"><svg width=\"30\" "
         "height=\"12\" viewBox=\"0 0 30 12\"><path d=\"M2 6h26\" stroke=\""
      << report_buyer_colour << "\" stroke-width=\"1.5\"/></svg> the buyer's offers, "
      << "by their utility to the buyer <svg width=\"30\" "
         "height=\"12\" viewBox=\"0 0 30 12\"><path d=\"M2 6h26\" stroke=\""
      << report_seller_colour << "\" stroke-width=\"1.5\"/></svg> the seller's "
      << "offers, by their utility to the seller; dashed: the negotiation's "
         "reservation values.</p>\n";
}

} // namespace

void write_report_traces(
    std::ostream& out, const tournament_results& r,
    const std::vector<std::vector<const negotiation_result*>>& by_scenario) {
  out << "<section id=\"traces\">\n<h2>Concession traces</h2>\n";
  if (r.scenarios.empty()) {
    out << "<p class=\"note\">No scenarios.</p>\n</section>\n";
    return;
  }
  out << "<p class=\"note\">A few negotiations per scenario, each of a different "
         "pairing: how each party conceded, offer by offer.</p>\n";
  write_report_trace_legend(out);
  for (std::size_t i = 0; i < r.scenarios.size(); ++i) {
    out << "<h3>" << report_scenario_title(i, r.scenarios[i]) << "</h3>\n";
    const auto picked = report_pick_traces(by_scenario[i]);
    if (picked.empty()) {
      out << "<p class=\"note\">No traces recorded.</p>\n";
      continue;
    }
    out << "<div class=\"plots\">\n";
    for (const auto* n : picked)
      write_report_trace_chart(out, r, *n);
    out << "</div>\n";
  }
  out << "</section>\n";
}

} // namespace parley::tournament::report_detail
