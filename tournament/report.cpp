#include "tournament/report.hpp"

#include <ostream>
#include <string_view>
#include <vector>

#include "tournament/report_sections.hpp"
#include "tournament/results.hpp"

namespace parley::tournament {

namespace {

/// Returns the negotiations of each scenario, in the order of `r`; those
/// naming no scenario are left out.
std::vector<std::vector<const negotiation_result*>>
report_negotiations_by_scenario(const tournament_results& r) {
  std::vector<std::vector<const negotiation_result*>> by_scenario(r.scenarios.size());
  for (const auto& n : r.negotiations)
    if (n.scenario < by_scenario.size())
      by_scenario[n.scenario].push_back(&n);
  return by_scenario;
}

/// The page's style sheet.
constexpr std::string_view report_style = R"(
body{font:14px/1.45 system-ui,sans-serif;color:#1d2228;background:#fff;margin:0 auto;max-width:1180px;padding:12px 24px 40px}
h1{font-size:26px;margin:8px 0 4px}
h2{font-size:20px;margin:32px 0 8px;padding-top:8px;border-top:2px solid #e3e6ea}
h3{font-size:16px;margin:20px 0 6px}
p.summary{font-size:15px;margin:0 0 6px}
p.note,p.legend,p.facts{color:#555;margin:4px 0}
nav a{margin-right:14px;color:#225ea8}
table{border-collapse:collapse}
.scores th,.scores td{padding:3px 7px;border-bottom:1px solid #e3e6ea}
.scores thead th{background:#f3f5f7;vertical-align:bottom;font-weight:600}
.scores tbody th{text-align:left;font-weight:600}
.scores td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.scores tbody tr:nth-child(even){background:#fafbfc}
.heat th,.heat td{border:1px solid #fff;padding:2px 4px}
.heat td{min-width:48px;height:28px;text-align:center;font-variant-numeric:tabular-nums}
.heat td.empty{background:#f3f5f7;color:#888}
.heat th.row{text-align:right;font-weight:600;white-space:nowrap}
.heat th.col{writing-mode:vertical-rl;transform:rotate(180deg);text-align:left;font-weight:600;max-height:160px;padding:4px 2px}
.heat th.corner{font-weight:400;color:#555;font-size:12px;text-align:left;vertical-align:bottom}
.ramp{display:inline-block;width:160px;height:12px;vertical-align:middle;margin:0 6px;border:1px solid #ccc}
.plots{display:flex;flex-wrap:wrap;gap:14px}
.scenarios{display:flex;flex-wrap:wrap;column-gap:24px}
.scenario{width:550px}
.scenario p{font-size:13px}
figure{margin:0}
figcaption{font-size:12px;color:#333;max-width:270px}
svg text{font:11px system-ui,sans-serif;fill:#333}
svg .frame{fill:#fff;stroke:#888;stroke-width:1}
svg .grid{stroke:#e6e8eb;stroke-width:1}
svg .title{font-size:12px;fill:#222}
)";

/// Writes the document's head and opens its body.
void write_report_page_start(std::ostream& out) {
  out << "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>Parley tournament</title>\n<style>"
      << report_style << "</style>\n</head>\n<body>\n";
}

} // namespace

void write_report(const tournament_results& r, std::ostream& out) {
  const auto by_scenario = report_negotiations_by_scenario(r);
  write_report_page_start(out);
  report_detail::write_report_header(out, r);
  report_detail::write_report_scores(out, r);
  report_detail::write_report_heatmaps(out, r);
  report_detail::write_report_scenarios(out, r, by_scenario);
  report_detail::write_report_traces(out, r, by_scenario);
  out << "</body>\n</html>\n";
}

} // namespace parley::tournament
