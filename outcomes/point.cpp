#include "outcomes/point.hpp"

#include <algorithm>
#include <cmath>

namespace parley::outcomes {

namespace {

/// The share of its possible gain one party gets, for the Kalai–Smorodinsky
/// criterion.
double gain_ratio(double u, double reservation, double best) {
  if (best <= reservation)
    return 1.0;
  return (u - reservation) / (best - reservation);
}

double advantage(double u, double reservation, double ideal) {
  if (ideal <= reservation)
    return 0.0;
  return (u - reservation) / (ideal - reservation);
}

} // namespace

bool dominates(point a, point b) {
  return a.first >= b.first && a.second >= b.second &&
         (a.first > b.first || a.second > b.second);
}

bool is_rational(point u, point reservation) {
  return u.first >= reservation.first && u.second >= reservation.second;
}

double distance(point a, point b) {
  auto dx = a.first - b.first;
  auto dy = a.second - b.second;
  return std::sqrt(dx * dx + dy * dy);
}

double welfare(point u) {
  return u.first + u.second;
}

double nash_product(point u, point reservation) {
  return (u.first - reservation.first) * (u.second - reservation.second);
}

double egalitarian_gain(point u, point reservation) {
  return std::min(u.first - reservation.first, u.second - reservation.second);
}

double kalai_smorodinsky_ratio(point u, point reservation, point best) {
  return std::min(gain_ratio(u.first, reservation.first, best.first),
                  gain_ratio(u.second, reservation.second, best.second));
}

point advantages(point u, point reservation, point ideal) {
  return {advantage(u.first, reservation.first, ideal.first),
          advantage(u.second, reservation.second, ideal.second)};
}

} // namespace parley::outcomes
