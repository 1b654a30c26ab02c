#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actors/common/refusal.hpp"
#include "messages/channel_settings.hpp"
#include "messages/demand.hpp"
#include "messages/error_code.hpp"

namespace parley::actors::coordinator {

/// The longest raw demand: 8 KiB of UTF-8, some 2,700 Chinese characters or 8,000
/// English letters (docs/protocols/channels.md, "Demands"). The original specification
/// sets no limit; this one keeps the prompts built from a demand small.
inline constexpr std::size_t max_demand_bytes = 8192;

/// A refused demand: nothing happens but the coded error.
using actors::refusal;

/// E001 if `raw_input` is empty or only whitespace (ASCII or U+3000), or
/// longer than `max_demand_bytes`.
std::optional<refusal> validate_demand(const std::string& raw_input);

/// A capability tag as selection and gap finding compare it: trimmed
/// (ASCII whitespace and U+3000), ASCII letters lower-cased.
std::string tag_key(std::string_view tag);

/// Every capability tag of the registered agents, active or not, sorted, each
/// once: the words in which a demand's needs are told.
std::vector<std::string>
capability_vocabulary(const std::vector<messages::channel_profile>& agents);

/// The rule brain's understanding of a valid demand, without a model (tests,
/// scenarios, benchmarks):
/// - surface_demand: `raw_input` without its leading and trailing whitespace;
/// - capability_tags: each tag of `vocabulary` that shares a term
///   (`terms_of`, exact) with the demand, in vocabulary order: "需要场地和嘉宾"
///   names "场地提供" (场地) and "演讲嘉宾" (嘉宾);
/// - confidence: high with two tags or more, medium with one, low with none;
/// - deep_understanding and context stay empty: no rule guesses a motive.
messages::demand_understanding understand(const std::string& raw_input,
                                          const std::vector<std::string>& vocabulary);

/// The stand-in for prompt 1 when the model's answer is unusable
/// (docs/protocols/channels.md, "Understanding"): the rule brain's understanding,
/// confidence low, marked `fallback`.
messages::demand_understanding
fallback_understanding(const std::string& raw_input,
                       const std::vector<std::string>& vocabulary);

/// Picks the candidates for `demand` among the active `agents`
/// (docs/protocols/channels.md, "Candidate selection"); never an inactive agent, never
/// none. Each pass ranks what it finds by relevance (then agent id) and keeps the first
/// max_candidates:
/// 1. matched: agents offering one of the demand's capability tags (compared
///    with ASCII case ignored); relevance 100 × the share of the tags the
///    agent offers, rounded.
/// 2. relaxed, the original's retry "with an adjusted prompt", only if the first
///    found nobody: agents whose capabilities or description share a term
///    (`terms_of`, stemmed) with the surface demand or its tags; relevance 10
///    per shared term, at most 50.
/// 3. fallback, only if the retry found nobody either: `fallback_candidates`
///    of them (at most max_candidates).
///
/// Refused with E005 when no agent is registered or none is active: then
/// there is nobody to fall back on.
std::optional<refusal>
select_candidates(const messages::demand_understanding& demand,
                  const std::vector<messages::channel_profile>& agents,
                  std::uint64_t seed, messages::candidate_selection& out,
                  const messages::channel_settings& limits = {});

/// The selection's fallback (docs/protocols/channels.md, "Candidate selection"):
/// `count` active agents (all of them if fewer are active) drawn at random, relevance
/// 0. The draw depends only on `seed` and the set of active agents, not on their order
/// in `agents`.
std::vector<messages::candidate>
fallback_candidates(const std::vector<messages::channel_profile>& agents,
                    std::size_t count, std::uint64_t seed);

} // namespace parley::actors::coordinator
