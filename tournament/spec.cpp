#include "tournament/spec.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "messages/json.hpp"

namespace parley::tournament {

using messages::brain_kind;
using messages::negotiation_style;
using messages::strategy_kind;
using nlohmann::json;

namespace {

std::vector<player> player_catalogue() {
  std::vector<player> all;
  for (auto kind :
       {strategy_kind::boulware, strategy_kind::linear, strategy_kind::conceder,
        strategy_kind::hardliner, strategy_kind::random, strategy_kind::tit_for_tat,
        strategy_kind::micro})
    all.push_back({messages::to_string(kind), brain_kind::strategy, kind,
                   negotiation_style::balanced});
  for (auto style : {negotiation_style::aggressive, negotiation_style::balanced,
                     negotiation_style::conservative})
    all.push_back({"rule_" + messages::to_string(style), brain_kind::rule,
                   strategy_kind::linear, style});
  return all;
}

/// Reads side `key` of a scenario: a utility without its domain, which is the
/// scenario's.
messages::utility_spec read_side(messages::object_reader& r, const char* key,
                                 const json& domain) {
  const auto& side = r.raw(key);
  auto path = r.path_of(key);
  if (!side.is_object())
    throw messages::json_error(path, "expected an object with weights, values and "
                                     "reservation");
  if (side.contains("domain"))
    throw messages::json_error(messages::path_join(path, "domain"),
                               "the domain is the scenario's; leave it out here");
  auto with_domain = side;
  with_domain["domain"] = domain;
  messages::utility_spec result;
  messages::read(with_domain, path, result);
  return result;
}

scenario_spec read_scenario(const json& j, const std::string& path) {
  messages::object_reader r{j, path};
  scenario_spec x;
  r.required("name", x.name);
  r.optional("max_rounds", x.max_rounds);
  r.optional("currency", x.currency);
  r.required("domain", x.domain);
  if (auto why = messages::validate(x.domain); !why.empty())
    throw messages::json_error(r.path_of("domain"), why);
  if (x.max_rounds < 1 || x.max_rounds > 20)
    throw messages::json_error(r.path_of("max_rounds"), "must be within 1..20");
  if (!messages::is_currency_code(x.currency))
    throw messages::json_error(r.path_of("currency"), "expected an ISO 4217 code");
  auto domain = r.raw("domain");
  x.buyer = read_side(r, "buyer", domain);
  x.seller = read_side(r, "seller", domain);
  r.done();
  return x;
}

void read_noise(const json& j, const std::string& path, noise_spec& x) {
  messages::object_reader r{j, path};
  r.optional("opening", x.opening);
  r.optional("reservation", x.reservation);
  r.done();
  for (auto [key, value] :
       {std::pair{"opening", x.opening}, std::pair{"reservation", x.reservation}})
    if (!std::isfinite(value) || value < 0.0 || value > 1.0)
      throw messages::json_error(messages::path_join(path, key), "must be within 0..1");
}

} // namespace

std::optional<player> player_named(const std::string& name) {
  for (auto& p : player_catalogue())
    if (p.name == name)
      return p;
  return std::nullopt;
}

std::vector<std::string> player_names() {
  std::vector<std::string> names;
  for (auto& p : player_catalogue())
    names.push_back(p.name);
  return names;
}

tournament_spec parse_spec(const std::string& text) {
  try {
    auto j = json::parse(text);
    messages::object_reader r{j, ""};
    tournament_spec x;
    std::vector<std::string> names = player_names();
    r.optional("strategies", names);
    r.optional("repetitions", x.repetitions);
    if (x.repetitions < 1 || x.repetitions > max_repetitions)
      throw messages::json_error(r.path_of("repetitions"),
                                 "must be within 1.." +
                                     std::to_string(max_repetitions));
    const auto& noise = r.raw("noise");
    if (!noise.is_null())
      read_noise(noise, r.path_of("noise"), x.noise);
    std::set<std::string> seen;
    for (std::size_t i = 0; i < names.size(); ++i) {
      auto at = r.path_of("strategies") + "[" + std::to_string(i) + "]";
      auto p = player_named(names[i]);
      if (!p) {
        std::string known;
        for (const auto& n : player_names())
          known += (known.empty() ? "" : ", ") + n;
        throw messages::json_error(at, "unknown strategy \"" + names[i] +
                                           "\"; known: " + known);
      }
      if (!seen.insert(names[i]).second)
        throw messages::json_error(at, "\"" + names[i] + "\" is listed twice");
      x.players.push_back(*p);
    }
    if (x.players.empty())
      throw messages::json_error(r.path_of("strategies"),
                                 "needs at least one strategy");
    const auto& scenarios = r.raw("scenarios");
    if (!scenarios.is_array() || scenarios.empty())
      throw messages::json_error(r.path_of("scenarios"),
                                 "expected a non-empty array of scenarios");
    for (std::size_t i = 0; i < scenarios.size(); ++i)
      x.scenarios.push_back(read_scenario(scenarios[i], r.path_of("scenarios") + "[" +
                                                            std::to_string(i) + "]"));
    r.done();
    return x;
  } catch (const messages::json_error& e) {
    throw spec_error(e.what());
  } catch (const json::exception& e) {
    throw spec_error(std::string{"not valid JSON: "} + e.what());
  }
}

} // namespace parley::tournament
