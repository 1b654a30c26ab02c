#include "outcomes/analysis.hpp"

#include <stdexcept>
#include <string>

namespace parley::outcomes {

std::vector<point> utility_points(const std::vector<outcome>& outcomes,
                                  const linear_utility& first,
                                  const linear_utility& second) {
  std::vector<point> result;
  result.reserve(outcomes.size());
  for (const auto& x : outcomes)
    result.push_back({first(x), second(x)});
  return result;
}

bilateral_analysis analyse(const domain& d, const linear_utility& first,
                           const linear_utility& second, std::size_t limit) {
  if (auto error = check_domain(d); !error.empty())
    throw std::invalid_argument(error);
  if (!first.fits(d) || !second.fits(d))
    throw std::invalid_argument(std::string{"the "} +
                                (first.fits(d) ? "second" : "first") +
                                " party's utility was made for another domain");
  auto outcomes = enumerate_outcomes(d, limit);
  return analyse(utility_points(outcomes, first, second),
                 {first.reservation(), second.reservation()});
}

} // namespace parley::outcomes
