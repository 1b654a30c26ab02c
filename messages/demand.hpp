#pragma once

// The coordinator's vocabulary (docs/protocols/channels.md): what it understood of a
// user's demand (docs/protocols/channels.md, "Understanding"), the agents it can pick
// from, and whom it picked (docs/protocols/channels.md, "Candidate selection").

#include <cstdint>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"

#include "messages/confidence.hpp"
#include "messages/fields.hpp"
#include "messages/proposal.hpp"

namespace parley::messages {

/// The `understanding` of a demand (docs/protocols/channels.md, "Understanding").
struct demand_understanding {
  /// What the user literally asks for.
  std::string surface_demand;
  /// Free-form, any JSON object: motivation, likely
  /// preferences.
  json_object deep_understanding;
  /// What the demand needs, in the words of the agents' capabilities.
  std::vector<std::string> capability_tags;
  /// Free-form, e.g. {"location": "北京"}.
  json_object context;
  confidence_level confidence = confidence_level::medium;
  /// Made without the model, because its answer was unusable
  /// (docs/protocols/channels.md, "Understanding").
  bool fallback = false;

  friend bool operator==(const demand_understanding& x, const demand_understanding& y) {
    return x.surface_demand == y.surface_demand &&
           x.deep_understanding == y.deep_understanding &&
           x.capability_tags == y.capability_tags && x.context == y.context &&
           x.confidence == y.confidence && x.fallback == y.fallback;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, demand_understanding& x) {
  return f(caf::meta::type_name("demand_understanding"),
           field("surface_demand", x.surface_demand),
           optional_field("deep_understanding", x.deep_understanding),
           optional_field("capability_tags", x.capability_tags),
           optional_field("context", x.context),
           optional_field("confidence", x.confidence),
           optional_field("fallback", x.fallback));
}

/// A registered agent as the coordinator sees it when it picks candidates: its
/// identity, what the agent offers, and whether it takes part at all (fallbacks are
/// drawn from active agents: docs/protocols/channels.md, "Candidate selection").
struct channel_profile {
  std::string agent_id;
  std::string display_name;
  /// Capability tags, e.g. "场地提供" or "catering": the vocabulary a
  /// demand's `capability_tags` are drawn from.
  std::vector<std::string> capabilities;
  std::string description;
  /// An inactive agent is never picked.
  bool active = true;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, channel_profile& x) {
  return f(caf::meta::type_name("channel_profile"), field("agent_id", x.agent_id),
           optional_field("display_name", x.display_name),
           optional_field("capabilities", x.capabilities),
           optional_field("description", x.description),
           optional_field("active", x.active));
}

/// An agent picked for a demand, and why
/// (docs/protocols/channels.md, "Candidate selection").
struct candidate {
  std::string agent_id;
  std::string display_name;
  std::string reason;
  /// 0..100.
  std::int32_t relevance_score = 0;
  /// What the agent offers (its profile's tags): a channel rebuilt after a
  /// restart still knows which of the demand's tags nobody covers.
  std::vector<std::string> capabilities;

  friend bool operator==(const candidate& x, const candidate& y) {
    return x.agent_id == y.agent_id && x.display_name == y.display_name &&
           x.reason == y.reason && x.relevance_score == y.relevance_score &&
           x.capabilities == y.capabilities;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, candidate& x) {
  return f(caf::meta::type_name("candidate"), field("agent_id", x.agent_id),
           optional_field("display_name", x.display_name),
           optional_field("reason", x.reason),
           field("relevance_score", x.relevance_score),
           optional_field("capabilities", x.capabilities));
}

/// Which pass of docs/protocols/channels.md, "Candidate selection" found the
/// candidates: the first, the retry (a relaxed match), or the fallback of random active
/// agents.
enum class selection_source : std::uint8_t { matched, relaxed, fallback };

/// The coordinator's pick for one demand: never empty
/// (docs/protocols/channels.md, "Candidate selection").
struct candidate_selection {
  /// At most MAX_CANDIDATES, highest relevance first.
  std::vector<candidate> candidates;
  selection_source source = selection_source::matched;
  /// One line on how they were found.
  std::string analysis;

  /// The `fallback` flag (docs/protocols/channels.md, "Candidate selection").
  bool fallback() const noexcept { return source == selection_source::fallback; }

  friend bool operator==(const candidate_selection& x, const candidate_selection& y) {
    return x.candidates == y.candidates && x.source == y.source &&
           x.analysis == y.analysis;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, candidate_selection& x) {
  return f(caf::meta::type_name("candidate_selection"),
           field("candidates", x.candidates), optional_field("source", x.source),
           optional_field("analysis", x.analysis));
}

std::string to_string(selection_source x);
bool from_string(const std::string& text, selection_source& x);

} // namespace parley::messages
