#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "actors/agent/brain.hpp"
#include "actors/agent/preference.hpp"
#include "messages/agent_profile.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/proposal.hpp"
#include "tournament/results.hpp"
#include "tournament/spec.hpp"

namespace parley::tournament {

/// One party of a match.
struct party_setup {
  tournament::player player;
  /// Its role, preferences and utility (with the reservation value it plays
  /// with): what an agent actor playing it would be spawned with.
  messages::agent_profile profile;
  /// For a strategy brain: its preference, shared with the other matches of
  /// its scenario and repetition (null: built from `profile`).
  std::shared_ptr<const actors::agent::preference> preference;
  /// The random strategy's seed.
  std::uint64_t seed = 0;
};

/// One negotiation of a tournament.
struct match_setup {
  std::string id;
  std::int32_t max_rounds = 10;
  party_setup buyer;
  party_setup seller;
  role opener = role::buyer;
  /// The opener's opening proposal.
  messages::proposal opening;
};

/// The agent ids of a match: "buyer" and "seller".
const std::string& agent_id(role x);

/// Returns the profile of the party on `side` of scenario `s` with
/// reservation value `r`: its utility, and for a rule brain the amount-only
/// preferences that stand for it (docs/tournament.md, "Strategies").
messages::agent_profile party_profile(const scenario_spec& s, role side, double r);

/// Returns the brain spec an agent actor needs to play `p` on `side` with
/// `seed` (the actor path of docs/tournament.md, "Two paths, one result").
messages::brain_spec brain_spec_for(const player& p, role side, std::uint64_t seed);

/// Plays `x` through the negotiation's pure rules
/// (actors/negotiation/rules.hpp) and the parties' brains, the same code the
/// actors run, in virtual time (one millisecond a move); returns the record.
messages::negotiation_record play(const match_setup& x);

} // namespace parley::tournament
