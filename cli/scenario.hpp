#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "messages/agent_profile.hpp"
#include "messages/channel_member.hpp"
#include "messages/consensus.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/input_limits.hpp"
#include "messages/proposal.hpp"

namespace parley::cli {

/// An agent of a scenario: its id, the user it acts for and its brain.
struct scenario_agent {
  std::string id;
  messages::agent_profile profile;
  messages::brain_spec brain;
};

/// A room and the agents in it.
struct scenario_room {
  std::string id;
  std::vector<std::string> participants;
};

/// A negotiation the runner opens at `at_ms`: `initiator` proposes
/// `proposal` to `responder` in `room`.
struct scenario_negotiation {
  std::string room;
  /// Milliseconds after the start of the run.
  std::int64_t at_ms = 0;
  std::string initiator;
  std::string responder;
  messages::proposal proposal;
  /// Optional; the room generates one when empty.
  std::string intent_id;
};

/// Which agent message an injection sends.
enum class inject_type : std::uint8_t {
  agent_proposal,
  agent_counter,
  agent_accept,
  agent_reject,
};

/// A raw agent message the runner delivers at `at_ms` to a negotiation of
/// `room`, as if `from` had sent it; no agent decides it and nothing checks
/// the sender beforehand (robustness tests forge, replay and misplace them).
struct scenario_inject {
  /// Milliseconds after the start of the run.
  std::int64_t at_ms = 0;
  std::string room;
  /// The claimed sender: any string, not necessarily an agent of the scenario.
  std::string from;
  inject_type type = inject_type::agent_proposal;
  /// "current" (the room's active negotiation, if any) or a negotiation id.
  std::string negotiation = "current";
  /// Set for agent_proposal and agent_counter only; its amount is not checked.
  std::optional<messages::proposal> proposal;
  /// For agent_counter and agent_reject only.
  std::string reason;
  /// Optional; the runner generates one when empty.
  std::string message_id;
};

/// A transcript line the runner hands to `room` at `at_ms`, as if heard
/// there: the room passes it to its agents and its trigger detector.
struct scenario_transcript {
  std::int64_t at_ms = 0;
  std::string room;
  std::string source = "voice";
  std::string speaker;
  std::string text;
};

/// A vote the runner tells `voter` to cast at `at_ms` (any agent of the
/// scenario: a vote from a non-eligible one is refused by the ballot).
struct scenario_vote {
  std::int64_t at_ms = 0;
  std::string voter;
  std::string option;
};

/// A ballot the runner opens at `at_ms` (docs/protocols/ballots-and-auctions.md). Its
/// voters are `voters` plus every agent whose role is in `roles`, resolved when it
/// opens.
struct scenario_ballot {
  std::string id;
  std::int64_t at_ms = 0;
  std::string topic;
  std::vector<std::string> options = {"approve", "reject"};
  messages::ballot_strategy strategy = messages::ballot_strategy::majority;
  std::vector<std::string> voters;
  std::vector<std::string> roles;
  std::int64_t window_ms = 5000;
  std::string task;
  std::vector<scenario_vote> votes;
};

/// A bid the runner tells `bidder` to place at `at_ms`.
struct scenario_bid {
  std::int64_t at_ms = 0;
  std::string bidder;
  double capability = 0;
  double load = 0;
  std::int64_t estimated_duration_ms = 1;
};

/// A task auction the runner opens at `at_ms` (docs/protocols/ballots-and-auctions.md).
struct scenario_auction {
  std::string id;
  std::int64_t at_ms = 0;
  std::string task;
  std::vector<std::string> invited;
  std::int64_t window_ms = 5000;
  std::int64_t base_duration_ms = 1000;
  std::vector<scenario_bid> bids;
};

/// How a demand should have ended, checked once the run is over: every field
/// left out is not checked.
struct demand_expectation {
  /// finalized, force_finalized or failed: the demand's (its top channel's).
  messages::demand_status status = messages::demand_status::finalized;
  /// Why it failed (docs/protocols/channels.md, "Failure reasons", e.g.
  /// "low_acceptance"); only with status failed.
  std::optional<std::string> reason;
  /// Who confirmed the top channel's final proposal, in any order: the
  /// confirmed participants of a forced one, otherwise the agents of its
  /// confirmed assignments.
  std::optional<std::vector<std::string>> confirmed;
  /// The round the top channel ended in.
  std::optional<std::int32_t> rounds;
  /// How many sub-channels the demand opened.
  std::optional<std::int32_t> subchannels;
};

/// A demand the runner submits to the world's coordinator at `at_ms`
/// (docs/protocols/channels.md, "Demands").
struct scenario_demand {
  std::int64_t at_ms = 0;
  std::string raw_input;
  /// Optional; the coordinator makes one when empty.
  std::string demand_id;
  std::string user_id;
  std::optional<demand_expectation> expect;
};

/// A whole scenario file, checked: every id it refers to exists.
struct scenario {
  /// Configuration overrides, unchecked here: the config loader validates
  /// them and names its own paths.
  nlohmann::json config = nlohmann::json::object();
  std::vector<scenario_agent> agents;
  std::vector<scenario_room> rooms;
  std::vector<scenario_negotiation> negotiations;
  std::vector<scenario_inject> inject;
  std::vector<scenario_transcript> transcripts;

  /// Returns whether any agent has an LLM brain (such a run needs real time).
  bool has_llm_agents() const;
  std::vector<scenario_ballot> ballots;
  std::vector<scenario_auction> auctions;
  /// The channel members (docs/protocols/channels.md, "Member brains"), registered with
  /// the world's coordinator.
  std::vector<messages::channel_member_spec> channel_agents;
  std::vector<scenario_demand> demands;
};

/// A scenario file could not be read or is not valid; `what()` is
/// `<source>: <location>: <reason>`, where the location is a JSON path such as
/// `negotiations[1].proposal.amount`, `(document)` for the whole file, or for
/// bad syntax a line and column (an unreadable file has no location).
class scenario_error : public std::runtime_error {
public:
  scenario_error(std::string source, std::string location, std::string reason);

  /// The file name (or other source name) given to the parser.
  const std::string& source() const noexcept { return source_; }

  /// The JSON path, `(document)` or `line L, column C`; empty when the file
  /// could not be read.
  const std::string& location() const noexcept { return location_; }

  const std::string& reason() const noexcept { return reason_; }

private:
  std::string source_;
  std::string location_;
  std::string reason_;
};

/// Parses and checks the scenario in `text`; `source_name` prefixes every
/// error message. Every time is checked against messages/time_limits.hpp and
/// every string against messages/input_limits.hpp. Throws scenario_error.
scenario parse_scenario(const std::string& text, const std::string& source_name);

/// Reads the file at `path` and parses it with parse_scenario. Throws
/// scenario_error, also when the file cannot be read or is larger than
/// `max_bytes` (refused before it is read).
scenario load_scenario(const std::string& path,
                       std::size_t max_bytes = messages::default_max_file_bytes);

/// Returns the name used in scenario files, e.g. "agent_counter".
std::string to_string(inject_type x);

/// Parses a name written by to_string; returns false for anything else.
bool from_string(const std::string& text, inject_type& x);

} // namespace parley::cli
