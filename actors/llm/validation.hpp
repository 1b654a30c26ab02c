#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"
#include "messages/proposal.hpp"

namespace parley::actors::llm {

/// A tool input checked against its schema and the user's rules: either an
/// `error` for the model (starting with "Error: ") or a usable value.
template <class T> struct checked {
  std::string error;
  T value;

  bool ok() const noexcept { return error.empty(); }
};

/// Checks an evaluate_proposal input answering `offer`.
///
/// `decision` must be accept, counter or reject; `reason` a string. An accept
/// must keep the hard rules (amount within the auto-approve limit and not past
/// the reservation price of `side`, the preferred currency, the escrow flag the
/// escrow preference demands). A counter needs `counter_proposal` with a
/// positive integer `amount` within the same amount rules; its missing fields
/// come from `offer` and its escrow flag is set by the escrow rule.
checked<messages::decision> check_evaluation(const nlohmann::json& input,
                                             const messages::proposal& offer,
                                             const messages::agent_preferences& prefs,
                                             messages::bargaining_side side);

/// Checks an analyze_and_propose input: a positive integer `amount` within
/// the auto-approve limit and not past the reservation price of `side`, an
/// optional currency (default: preferred), a description; the escrow flag
/// follows the escrow rule.
checked<messages::proposal> check_proposal(const nlohmann::json& input,
                                           const messages::agent_preferences& prefs,
                                           messages::bargaining_side side);

} // namespace parley::actors::llm
