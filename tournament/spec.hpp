#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "messages/agent_profile.hpp"
#include "messages/utility.hpp"

namespace parley::tournament {

/// A strategy a tournament can field (docs/tournament.md, "Strategies"): a
/// strategy brain (`boulware`, ..., `micro`) or a rule brain of one style
/// (`rule_aggressive`, `rule_balanced`, `rule_conservative`).
struct player {
  std::string name;
  messages::brain_kind kind = messages::brain_kind::strategy;
  messages::strategy_kind strategy = messages::strategy_kind::linear;
  messages::negotiation_style style = messages::negotiation_style::balanced;
};

/// Returns the player called `name`, or nullopt.
std::optional<player> player_named(const std::string& name);

/// Every player's name, in the catalogue's order: the default lineup.
std::vector<std::string> player_names();

/// One scenario: a domain, the buyer's and the seller's utilities over it and
/// the round limit.
struct scenario_spec {
  std::string name;
  std::int32_t max_rounds = 10;
  std::string currency = "GBP";
  messages::outcome_domain domain;
  /// Their `domain` is the scenario's.
  messages::utility_spec buyer;
  messages::utility_spec seller;
};

/// Seeded noise (docs/tournament.md, "Noise"), drawn once per scenario and
/// repetition: each reservation value moves by up to ±`reservation` (kept
/// within 0..1), and the opening offer aims up to `opening` below the
/// opener's best utility.
struct noise_spec {
  double opening = 0.0;
  double reservation = 0.0;
};

/// A tournament (docs/tournament.md, "The spec file").
struct tournament_spec {
  std::vector<player> players;
  std::vector<scenario_spec> scenarios;
  std::int32_t repetitions = 10;
  noise_spec noise;
};

/// A spec that cannot be read: `what()` names the field, e.g.
/// "scenarios[1].buyer.weights.days: names no issue of the domain".
class spec_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Reads a spec from JSON text. Throws spec_error.
tournament_spec parse_spec(const std::string& text);

/// The most repetitions a spec may ask for.
inline constexpr std::int32_t max_repetitions = 100'000;

} // namespace parley::tournament
