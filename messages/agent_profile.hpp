#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/fields.hpp"
#include "messages/proposal.hpp"
#include "messages/utility.hpp"

namespace parley::messages {

/// When the agent insists on escrow (docs/protocols/bilateral.md, "Agents").
enum class escrow_preference : std::uint8_t { always, never, above_threshold };

/// How hard the agent bargains (docs/protocols/bilateral.md, "The rule brain").
enum class negotiation_style : std::uint8_t { aggressive, balanced, conservative };

/// The user's preferences (docs/protocols/bilateral.md, "Agents"); amounts in minor
/// units.
struct agent_preferences {
  /// The agent never accepts an amount above this without its user.
  std::int64_t max_auto_approve_amount = 100000;
  std::string preferred_currency = "GBP";
  messages::escrow_preference escrow_preference = escrow_preference::above_threshold;
  std::int64_t escrow_threshold = 50000;
  negotiation_style style = negotiation_style::balanced;
  /// The reservation price: a seller never proposes or accepts below it, a
  /// buyer never above it. Unset, a seller's floor is a tenth of
  /// `max_auto_approve_amount` and a buyer's ceiling is that limit itself
  /// (`reservation_limit`; docs/protocols/bilateral.md, "Reservation prices").
  caf::optional<std::int64_t> reservation_amount;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_preferences& x) {
  return f(caf::meta::type_name("agent_preferences"),
           optional_field("max_auto_approve_amount", x.max_auto_approve_amount),
           optional_field("preferred_currency", x.preferred_currency),
           optional_field("escrow_preference", x.escrow_preference),
           optional_field("escrow_threshold", x.escrow_threshold),
           optional_field("negotiation_style", x.style),
           omittable_field("reservation_amount", x.reservation_amount));
}

/// Returns whether a deal of `amount` must use escrow under `x` (always,
/// never, or strictly above the threshold: docs/protocols/bilateral.md, "Agents").
bool escrow_required(const agent_preferences& x, std::int64_t amount);

/// Which way the rule brain bargains: a buyer wants lower amounts, a seller
/// higher ones. `from_role` infers it from the profile's role.
enum class bargaining_side : std::uint8_t { from_role, buyer, seller };

/// Returns the amount past which an agent on `side` (buyer or seller, never
/// `from_role`) neither proposes nor accepts: a buyer's ceiling, the lower of
/// `x.reservation_amount` and `x.max_auto_approve_amount`; a seller's floor,
/// `x.reservation_amount` or else a tenth of `x.max_auto_approve_amount`.
std::int64_t reservation_limit(const agent_preferences& x, bargaining_side side);

/// Returns whether `amount` lies past `reservation_limit(x, side)`: above a
/// buyer's ceiling or below a seller's floor.
bool past_reservation(const agent_preferences& x, bargaining_side side,
                      std::int64_t amount);

/// The user an agent acts for (docs/protocols/bilateral.md, "Agents").
struct agent_profile {
  std::string display_name;
  std::string role;
  agent_preferences preferences;
  std::string custom_instructions;
  /// What the agent can do, capability name -> 0..1 (rule agents vote and bid from it:
  /// docs/protocols/ballots-and-auctions.md, "How rule agents vote and bid").
  std::map<std::string, double> capabilities;
  /// How busy the agent is, 0 (idle) ..1 (fully loaded)
  /// (docs/protocols/ballots-and-auctions.md).
  double load = 0;
  /// How the agent values outcomes (docs/outcomes.md, "Domains in Parley"):
  /// a strategy brain bargains by it, and outcome analysis scores by it.
  caf::optional<utility_spec> utility;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_profile& x) {
  return f(caf::meta::type_name("agent_profile"),
           optional_field("display_name", x.display_name),
           optional_field("role", x.role), optional_field("preferences", x.preferences),
           optional_field("custom_instructions", x.custom_instructions),
           optional_field("capabilities", x.capabilities),
           optional_field("load", x.load), omittable_field("utility", x.utility));
}

/// How one party of a negotiation values its outcomes: its utility and which
/// way the amount's default values run for it (buyer or seller, never
/// `from_role`). A room hands both parties' to each negotiation it opens,
/// which scores its end by them when their domains are the same.
struct party_valuation {
  utility_spec utility;
  bargaining_side side = bargaining_side::seller;

  friend bool operator==(const party_valuation& x, const party_valuation& y) {
    return x.utility == y.utility && x.side == y.side;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, party_valuation& x) {
  return f(caf::meta::type_name("party_valuation"), field("utility", x.utility),
           field("side", x.side));
}

/// Which brain decides for an agent.
/// `llm` answers through a model (actors/agent/llm_agent.hpp); anywhere an
/// agent must decide synchronously it decides like `rule`. `external` has no
/// brain here: its moves come over the HTTP API (actors/agent/external_agent.hpp).
/// `strategy` bargains by one of the strategies below
/// (actors/agent/strategy_brain.hpp).
enum class brain_kind : std::uint8_t { rule, script, llm, external, strategy };

/// How a strategy brain bargains (docs/protocols/bilateral.md, "Strategy
/// brains"): three time-based concessions (Boulware concedes late, linear
/// evenly, conceder early), a hardliner that never concedes, a seeded random
/// baseline, tit-for-tat (concedes as much as the other side did) and MiCRO
/// (concedes one offer for each new offer of the other side).
enum class strategy_kind : std::uint8_t {
  boulware,
  linear,
  conceder,
  hardliner,
  random,
  tit_for_tat,
  micro
};

/// What an answer to an offer does (scripted replies and brain decisions).
enum class reply_action : std::uint8_t { counter, accept, reject, silent };

/// A partial proposal: fields left empty are copied from the proposal being
/// answered.
struct proposal_patch {
  caf::optional<std::int64_t> amount;
  caf::optional<std::string> currency;
  caf::optional<bool> escrow;
  caf::optional<std::string> description;
  caf::optional<json_object> terms;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, proposal_patch& x) {
  return f(caf::meta::type_name("proposal_patch"), omittable_field("amount", x.amount),
           omittable_field("currency", x.currency), omittable_field("escrow", x.escrow),
           omittable_field("description", x.description),
           omittable_field("terms", x.terms));
}

/// Applies `patch` on top of `base`.
proposal apply_patch(const proposal& base, const proposal_patch& patch);

/// One scripted reply to an incoming proposal or counter.
struct script_reply {
  reply_action action = reply_action::silent;
  caf::optional<proposal_patch> proposal;
  std::string reason;
  /// Think time before the reply is sent (a delayed message, never a sleep).
  std::int64_t delay_ms = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, script_reply& x) {
  return f(caf::meta::type_name("script_reply"), field("action", x.action),
           omittable_field("proposal", x.proposal), optional_field("reason", x.reason),
           optional_field("delay_ms", x.delay_ms));
}

/// Everything needed to build an agent's brain, on any node.
struct brain_spec {
  brain_kind kind = brain_kind::rule;
  bargaining_side side = bargaining_side::from_role;
  /// For the script brain: one reply per incoming proposal or counter, in order;
  /// when the list is used up the agent stays silent.
  std::vector<script_reply> script;
  /// For the LLM brain: "anthropic" or "openai", the model and the endpoint's
  /// base URL; empty means the `llm` settings' value.
  std::string provider;
  std::string model;
  std::string endpoint;
  /// For the strategy brain: which strategy, and the random one's seed.
  strategy_kind strategy = strategy_kind::linear;
  std::uint64_t seed = 0;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, brain_spec& x) {
  return f(caf::meta::type_name("brain_spec"), field("kind", x.kind),
           optional_field("side", x.side), optional_field("script", x.script),
           optional_field("provider", x.provider), optional_field("model", x.model),
           optional_field("endpoint", x.endpoint),
           optional_field("strategy", x.strategy), optional_field("seed", x.seed));
}

/// Everything needed to spawn an agent.
struct agent_spec {
  std::string id;
  agent_profile profile;
  brain_spec brain;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, agent_spec& x) {
  return f(caf::meta::type_name("agent_spec"), field("id", x.id),
           optional_field("profile", x.profile), optional_field("brain", x.brain));
}

std::string to_string(escrow_preference x);
bool from_string(const std::string& text, escrow_preference& x);
std::string to_string(negotiation_style x);
bool from_string(const std::string& text, negotiation_style& x);
std::string to_string(brain_kind x);
bool from_string(const std::string& text, brain_kind& x);
std::string to_string(strategy_kind x);
bool from_string(const std::string& text, strategy_kind& x);
std::string to_string(bargaining_side x);
bool from_string(const std::string& text, bargaining_side& x);
std::string to_string(reply_action x);
bool from_string(const std::string& text, reply_action& x);

} // namespace parley::messages
