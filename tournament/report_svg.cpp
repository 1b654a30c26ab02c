#include "tournament/report_svg.hpp"

#include <array>
#include <cmath>
#include <ostream>

namespace parley::tournament::report_detail {

std::string report_tenths_text(long long tenths) {
  std::string text = tenths < 0 ? "-" : "";
  const auto magnitude = tenths < 0 ? -tenths : tenths;
  text += std::to_string(magnitude / 10);
  if (magnitude % 10 != 0) {
    text += '.';
    text += static_cast<char>('0' + magnitude % 10);
  }
  return text;
}

long long report_tenths_of(double pixels) {
  return std::llround(pixels * 10.0);
}

std::string report_px(double pixels) {
  return report_tenths_text(report_tenths_of(pixels));
}

std::string report_polyline_points(const std::vector<report_pixel>& pixels) {
  std::string points;
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    if (i > 0 && pixels[i] == pixels[i - 1])
      continue;
    if (!points.empty())
      points += ' ';
    points += report_tenths_text(pixels[i].first);
    points += ',';
    points += report_tenths_text(pixels[i].second);
  }
  return points;
}

std::vector<std::size_t> report_even_sample(std::size_t size, std::size_t count) {
  std::vector<std::size_t> positions;
  if (count >= size) {
    for (std::size_t i = 0; i < size; ++i)
      positions.push_back(i);
    return positions;
  }
  if (count == 1)
    positions.push_back(0);
  // Steps of (size - 1) / (count - 1) >= 1, so no position repeats.
  for (std::size_t i = 0; count >= 2 && i < count; ++i)
    positions.push_back(i * (size - 1) / (count - 1));
  return positions;
}

void write_report_y_axis(std::ostream& out, const report_plot_frame& frame) {
  out << "<rect class=\"frame\" x=\"" << report_px(frame.left) << "\" y=\""
      << report_px(frame.top) << "\" width=\"" << report_px(frame.width)
      << "\" height=\"" << report_px(frame.height) << "\"/>";
  const std::array<std::pair<double, const char*>, 3> ticks{
      {{0.0, "0"}, {0.5, "0.5"}, {1.0, "1"}}};
  for (const auto& [u, label] : ticks) {
    const auto y = report_px(frame.y_at(u));
    out << "<line class=\"grid\" x1=\"" << report_px(frame.left) << "\" y1=\"" << y
        << "\" x2=\"" << report_px(frame.right()) << "\" y2=\"" << y << "\"/>";
    out << "<text x=\"" << report_px(frame.left - 5) << "\" y=\""
        << report_px(frame.y_at(u) + 4) << "\" text-anchor=\"end\">" << label
        << "</text>";
  }
}

void write_report_dashed_row(std::ostream& out, const report_plot_frame& frame,
                             double u, const char* colour) {
  if (!std::isfinite(u))
    return;
  const auto y = report_px(frame.y_at(u));
  out << "<line x1=\"" << report_px(frame.left) << "\" y1=\"" << y << "\" x2=\""
      << report_px(frame.right()) << "\" y2=\"" << y << "\" stroke=\"" << colour
      << "\" stroke-dasharray=\"5 4\"/>";
}

} // namespace parley::tournament::report_detail
