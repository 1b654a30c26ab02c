#pragma once

// The report's SVG drawing helpers (tournament/report.cpp): pixel coordinates,
// the plot frame and its axes, polylines and dashed lines, shared by the
// scenario plots and the concession traces. Internal to the report.

#include <algorithm>
#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace parley::tournament::report_detail {

/// Returns `tenths` / 10 as a decimal, without a trailing ".0": "12.3", "12".
std::string report_tenths_text(long long tenths);

/// Returns a pixel coordinate in tenths of a pixel.
long long report_tenths_of(double pixels);

/// Returns a pixel coordinate rounded to one decimal.
std::string report_px(double pixels);

/// Where a plot's unit square lies in its SVG, in pixels.
struct report_plot_frame {
  double left = 0.0;
  double top = 0.0;
  double width = 0.0;
  double height = 0.0;

  /// The pixel column of `u` in [0, 1] (clamped).
  double x_at(double u) const { return left + std::clamp(u, 0.0, 1.0) * width; }
  /// The pixel row of `u` in [0, 1] (clamped), 0 at the bottom.
  double y_at(double u) const { return top + (1.0 - std::clamp(u, 0.0, 1.0)) * height; }
  /// The pixel column of the frame's right edge.
  double right() const { return left + width; }
  /// The pixel row of the frame's bottom edge.
  double bottom() const { return top + height; }
};

/// A point of a plot in tenths of a pixel; sorts and compares exactly.
using report_pixel = std::pair<long long, long long>;

/// Returns `pixels` as the points attribute of a polyline, dropping repeats.
std::string report_polyline_points(const std::vector<report_pixel>& pixels);

/// Returns `count` distinct positions evenly spaced over [0, size), the first
/// and (for `count` >= 2) the last included; all of them when `count` >=
/// `size`.
std::vector<std::size_t> report_even_sample(std::size_t size, std::size_t count);

/// Writes a plot's frame, with light grid lines and tick labels at 0, 0.5 and
/// 1 on the y axis.
void write_report_y_axis(std::ostream& out, const report_plot_frame& frame);

/// Writes a dashed horizontal line across `frame` at utility `u`, if finite.
void write_report_dashed_row(std::ostream& out, const report_plot_frame& frame,
                             double u, const char* colour);

} // namespace parley::tournament::report_detail
