#pragma once

#include <tuple>

namespace parley::outcomes {

/// A point in utility space: the first party's utility and the second's.
struct point {
  double first = 0.0;
  double second = 0.0;
};

inline bool operator==(point a, point b) {
  return a.first == b.first && a.second == b.second;
}
inline bool operator!=(point a, point b) {
  return !(a == b);
}
/// Lexicographic, for sorting and sets.
inline bool operator<(point a, point b) {
  return std::tie(a.first, a.second) < std::tie(b.first, b.second);
}

/// Returns `x` with the parties swapped.
inline point swapped(point x) {
  return {x.second, x.first};
}

/// Returns whether `a` is at least as good as `b` for both parties and better
/// for one (exact comparisons).
bool dominates(point a, point b);

/// Returns whether both parties get at least their reservation values (>=).
bool is_rational(point u, point reservation);

/// The Euclidean distance between `a` and `b`.
double distance(point a, point b);

/// u1 + u2.
double welfare(point u);

/// (u1 - r1) * (u2 - r2).
double nash_product(point u, point reservation);

/// min(u1 - r1, u2 - r2): the egalitarian criterion.
double egalitarian_gain(point u, point reservation);

/// min over parties of (u - r) / (best - r), where `best` is the party's best
/// rational utility; a party whose best equals its reservation value counts 1
/// (it gets all it can). The Kalai–Smorodinsky criterion.
double kalai_smorodinsky_ratio(point u, point reservation, point best);

/// Per party (u - r) / (ideal - r), `ideal` being its best utility over all
/// outcomes; 0 for a party whose ideal does not exceed its reservation value.
point advantages(point u, point reservation, point ideal);

} // namespace parley::outcomes
