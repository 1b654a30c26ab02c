#include "actors/coordinator/rules.hpp"

#include <algorithm>
#include <iterator>
#include <random>
#include <set>
#include <string_view>
#include <utility>

#include "actors/coordinator/terms.hpp"

namespace parley::actors::coordinator {

using messages::candidate;
using messages::channel_profile;
using messages::confidence_level;
using messages::demand_understanding;
using messages::error_code;
using messages::selection_source;

namespace {

/// U+3000, the space of Chinese and Japanese input methods.
constexpr std::string_view ideographic_space = "\xE3\x80\x80";

/// A relaxed match scores at most this: it is weaker evidence than a tag.
constexpr std::int32_t relaxed_score_cap = 50;
constexpr std::int32_t relaxed_score_per_term = 10;

/// How many shared terms a relaxed match's reason names.
constexpr std::size_t reason_terms = 5;

bool is_ascii_space(char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

std::string_view trim(std::string_view s) {
  auto n = ideographic_space.size();
  for (;;) {
    if (!s.empty() && is_ascii_space(s.front()))
      s.remove_prefix(1);
    else if (s.substr(0, n) == ideographic_space)
      s.remove_prefix(n);
    else
      break;
  }
  for (;;) {
    if (!s.empty() && is_ascii_space(s.back()))
      s.remove_suffix(1);
    else if (s.size() >= n && s.substr(s.size() - n) == ideographic_space)
      s.remove_suffix(n);
    else
      break;
  }
  return s;
}

/// "a, b, c", and " and N more" past the first `most`.
template <class Strings>
std::string join(const Strings& xs, std::size_t most = std::string::npos) {
  std::string result;
  std::size_t shown = 0;
  for (const auto& x : xs) {
    if (shown == most)
      return result + " and " + std::to_string(xs.size() - most) + " more";
    result += (shown++ == 0 ? "" : ", ") + x;
  }
  return result;
}

candidate make_candidate(const channel_profile& agent, std::string reason,
                         std::int32_t score) {
  return {agent.agent_id, agent.display_name, std::move(reason), score,
          agent.capabilities};
}

/// Highest relevance first, then by agent id; keeps the first `most`.
void rank(std::vector<candidate>& xs, std::size_t most) {
  std::sort(xs.begin(), xs.end(), [](const candidate& x, const candidate& y) {
    if (x.relevance_score != y.relevance_score)
      return x.relevance_score > y.relevance_score;
    return x.agent_id < y.agent_id;
  });
  if (xs.size() > most)
    xs.resize(most);
}

std::vector<candidate> matched(const demand_understanding& demand,
                               const std::vector<channel_profile>& agents) {
  std::vector<candidate> result;
  auto total = demand.capability_tags.size();
  if (total == 0)
    return result;
  for (const auto& agent : agents) {
    if (!agent.active)
      continue;
    std::set<std::string> offered;
    for (const auto& capability : agent.capabilities)
      offered.insert(tag_key(capability));
    std::vector<std::string> covered;
    for (const auto& tag : demand.capability_tags)
      if (offered.count(tag_key(tag)) > 0)
        covered.push_back(tag);
    if (covered.empty())
      continue;
    auto score = (200 * covered.size() + total) / (2 * total); // rounded half up
    result.push_back(make_candidate(agent, "offers " + join(covered),
                                    static_cast<std::int32_t>(score)));
  }
  return result;
}

std::vector<candidate> relaxed(const demand_understanding& demand,
                               const std::vector<channel_profile>& agents) {
  auto wanted = terms_of(demand.surface_demand, term_match::stemmed);
  for (const auto& tag : demand.capability_tags)
    wanted.merge(terms_of(tag, term_match::stemmed));
  std::vector<candidate> result;
  for (const auto& agent : agents) {
    if (!agent.active)
      continue;
    auto own = terms_of(agent.description, term_match::stemmed);
    for (const auto& capability : agent.capabilities)
      own.merge(terms_of(capability, term_match::stemmed));
    std::vector<std::string> shared;
    std::set_intersection(wanted.begin(), wanted.end(), own.begin(), own.end(),
                          std::back_inserter(shared));
    if (shared.empty())
      continue;
    auto score =
        std::min(relaxed_score_cap,
                 relaxed_score_per_term * static_cast<std::int32_t>(shared.size()));
    result.push_back(make_candidate(agent,
                                    "shares " + join(shared, reason_terms) +
                                        " with the demand (relaxed match)",
                                    score));
  }
  return result;
}

std::string analysis(selection_source source, std::size_t found, std::size_t active) {
  auto of_active =
      std::to_string(found) + " of " + std::to_string(active) + " active agents";
  switch (source) {
  case selection_source::matched:
    return of_active + " offer the demand's capability tags";
  case selection_source::relaxed:
    return "no active agent offers the demand's capability tags; " + of_active +
           " share terms with it";
  case selection_source::fallback:
    return "nothing matched the demand; " + of_active + " drawn at random";
  }
  return {};
}

} // namespace

std::string tag_key(std::string_view tag) {
  std::string result{trim(tag)};
  for (auto& c : result)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return result;
}

std::optional<refusal> validate_demand(const std::string& raw_input) {
  if (raw_input.size() > max_demand_bytes)
    return refusal{error_code::invalid_request,
                   "raw_input must be at most " + std::to_string(max_demand_bytes) +
                       " bytes long, got " + std::to_string(raw_input.size())};
  if (trim(raw_input).empty())
    return refusal{error_code::invalid_request, "raw_input must not be empty"};
  return std::nullopt;
}

std::vector<std::string>
capability_vocabulary(const std::vector<channel_profile>& agents) {
  std::set<std::string> tags;
  for (const auto& agent : agents)
    for (const auto& capability : agent.capabilities)
      if (!trim(capability).empty())
        tags.insert(capability);
  return {tags.begin(), tags.end()};
}

demand_understanding understand(const std::string& raw_input,
                                const std::vector<std::string>& vocabulary) {
  demand_understanding result;
  result.surface_demand = std::string{trim(raw_input)};
  auto said = terms_of(result.surface_demand);
  for (const auto& tag : vocabulary) {
    auto tag_terms = terms_of(tag);
    if (std::any_of(tag_terms.begin(), tag_terms.end(),
                    [&said](const std::string& t) { return said.count(t) > 0; }))
      result.capability_tags.push_back(tag);
  }
  auto n = result.capability_tags.size();
  result.confidence = n >= 2   ? confidence_level::high
                      : n == 1 ? confidence_level::medium
                               : confidence_level::low;
  return result;
}

demand_understanding
fallback_understanding(const std::string& raw_input,
                       const std::vector<std::string>& vocabulary) {
  auto result = understand(raw_input, vocabulary);
  result.confidence = confidence_level::low;
  result.fallback = true;
  return result;
}

std::optional<refusal> select_candidates(const demand_understanding& demand,
                                         const std::vector<channel_profile>& agents,
                                         std::uint64_t seed,
                                         messages::candidate_selection& out,
                                         const messages::channel_settings& limits) {
  if (agents.empty())
    return refusal{error_code::no_candidates,
                   "no agents are registered: nobody can take up the demand"};
  auto active = static_cast<std::size_t>(std::count_if(
      agents.begin(), agents.end(), [](const channel_profile& x) { return x.active; }));
  if (active == 0)
    return refusal{error_code::no_candidates,
                   "none of the " + std::to_string(agents.size()) +
                       " registered agents is active: nobody can take up the demand"};
  auto most = static_cast<std::size_t>(std::max(1, limits.max_candidates));
  auto source = selection_source::matched;
  auto found = matched(demand, agents);
  if (found.empty()) {
    source = selection_source::relaxed;
    found = relaxed(demand, agents);
  }
  if (found.empty()) {
    source = selection_source::fallback;
    auto count = std::min(
        most, static_cast<std::size_t>(std::max(1, limits.fallback_candidates)));
    found = fallback_candidates(agents, count, seed);
  }
  out.analysis = analysis(source, found.size(), active);
  out.source = source;
  rank(found, most);
  out.candidates = std::move(found);
  return std::nullopt;
}

std::vector<candidate> fallback_candidates(const std::vector<channel_profile>& agents,
                                           std::size_t count, std::uint64_t seed) {
  std::vector<const channel_profile*> pool;
  for (const auto& agent : agents)
    if (agent.active)
      pool.push_back(&agent);
  std::sort(pool.begin(), pool.end(),
            [](const channel_profile* x, const channel_profile* y) {
              return x->agent_id < y->agent_id;
            });
  count = std::min(count, pool.size());
  // mt19937_64's output is fixed by the standard, its distributions are not:
  // a plain modulo keeps the draw the same everywhere (its bias is negligible
  // at a registry's size).
  std::mt19937_64 random{seed};
  std::vector<candidate> result;
  for (std::size_t i = 0; i < count; ++i) {
    auto j = i + static_cast<std::size_t>(random() % (pool.size() - i));
    std::swap(pool[i], pool[j]);
    result.push_back(make_candidate(
        *pool[i], "fallback: drawn at random among the active agents", 0));
  }
  return result;
}

} // namespace parley::actors::coordinator
