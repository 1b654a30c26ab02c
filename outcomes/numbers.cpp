#include "outcomes/numbers.hpp"

#include <iomanip>
#include <sstream>

namespace parley::outcomes {

std::string format_number(double x) {
  std::ostringstream out;
  out << std::setprecision(12) << x;
  return out.str();
}

} // namespace parley::outcomes
