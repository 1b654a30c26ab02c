#pragma once

#include <string>

namespace parley::outcomes {

/// Returns `x` with up to twelve significant digits: 0.1 * 3 reads "0.3".
std::string format_number(double x);

/// Returns whether `x` is within [0, 1] (false for NaN).
inline bool in_unit_interval(double x) {
  return x >= 0.0 && x <= 1.0;
}

} // namespace parley::outcomes
