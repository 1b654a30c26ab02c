#pragma once

// The coordinator's two prompts: 1, understanding a demand
// (docs/protocols/channels.md, "Understanding"), and 2, picking candidates among the
// registered agents (at least one: docs/protocols/channels.md, "Candidate selection"),
// each with its fallback. Pure: the caller sends the prompt and hands back the model's
// text.

#include <cstdint>
#include <string>
#include <vector>

#include "actors/llm/json_prompt.hpp"
#include "messages/channel_settings.hpp"
#include "messages/demand.hpp"

namespace parley::actors::coordinator {

/// Prompt 1, in the language of `raw_input` (a demand that passed
/// validate_demand): asks for a demand_understanding as a JSON object
/// (surface_demand, deep_understanding, capability_tags, context,
/// confidence), its tags preferably from `vocabulary`. The demand is
/// quoted byte for byte.
llm::text_prompt understanding_prompt(const std::string& raw_input,
                                      const std::vector<std::string>& vocabulary);

/// Reads the model's answer to prompt 1. Usable: a JSON object (see
/// llm::find_json_object) with a non-empty surface_demand, confidence high |
/// medium | low, optional deep_understanding and context objects, and
/// optional capability_tags of non-empty strings (each kept once); other
/// keys are ignored. Otherwise (also for an empty answer, when the call
/// failed) the value is fallback_understanding(raw_input, vocabulary),
/// marked `fallback`, with the reason.
llm::outcome<messages::demand_understanding>
read_understanding(const std::string& answer, const std::string& raw_input,
                   const std::vector<std::string>& vocabulary);

/// Prompt 2, in the language of the demand: lists the active `agents` (id, name,
/// capabilities, description) and asks for the original specification's smart filter
/// answer, `analysis` with `definitely_related` and `possibly_related` lists of
/// {agent_id, reason, relevance_score}: at least one candidate, at most
/// `limits.max_candidates`.
llm::text_prompt selection_prompt(const messages::demand_understanding& demand,
                                  const std::vector<messages::channel_profile>& agents,
                                  const messages::channel_settings& limits);

/// The retry "with an adjusted prompt"
/// (docs/protocols/channels.md, "Candidate selection"): prompt 2, told why its first
/// answer was unusable (`why`, from read_selection) and to relax its match: any agent
/// whose capabilities or description touch the demand will do, and it must name at
/// least one.
llm::text_prompt
selection_retry_prompt(const messages::demand_understanding& demand,
                       const std::vector<messages::channel_profile>& agents,
                       const messages::channel_settings& limits,
                       const std::string& why);

/// Reads the model's answer to prompt 2 (`pass` matched) or to its retry
/// (`pass` relaxed). Usable: every candidate names an active agent of
/// `agents` once, relevance_score an integer within 0..100, reason a string
/// if present; together at least one and at most `limits.max_candidates`.
/// The candidates are ranked by relevance (then agent id), their display
/// names taken from `agents`, and the selection's source is `pass`.
///
/// Otherwise the value is the random draw of
/// docs/protocols/channels.md, "Candidate selection": fallback_candidates (of `seed`;
/// limits.fallback_candidates of them, at most max_candidates), source fallback, with
/// the reason. After an unusable first answer the caller retries with
/// selection_retry_prompt and reads that answer with `pass` relaxed; the fallback of
/// the retry is the one it keeps. The fallback is empty only when no agent is active
/// (which select_candidates refuses with E005 beforehand).
llm::outcome<messages::candidate_selection>
read_selection(const std::string& answer,
               const std::vector<messages::channel_profile>& agents,
               const messages::channel_settings& limits,
               messages::selection_source pass, std::uint64_t seed);

} // namespace parley::actors::coordinator
