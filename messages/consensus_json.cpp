// JSON mapping of the ballot and auction wire types
// (docs/protocols/ballots-and-auctions.md; declared in json.hpp).

#include "messages/enum_names.hpp"
#include "messages/json.hpp"
#include "messages/json_fields.hpp"

namespace parley::messages {

using nlohmann::json;

namespace {

constexpr const char* strategy_choices = "majority | unanimous | weighted | veto";
constexpr const char* ballot_status_choices = "approved | rejected";
constexpr const char* ballot_kind_choices = "propose | vote | result";
constexpr const char* auction_status_choices = "awarded | no_bids";
constexpr const char* auction_kind_choices = "bid | result";

} // namespace

PARLEY_ENUM_JSON(ballot_strategy, strategy_choices)
PARLEY_ENUM_JSON(ballot_status, ballot_status_choices)
PARLEY_ENUM_JSON(ballot_event_kind, ballot_kind_choices)
PARLEY_ENUM_JSON(auction_status, auction_status_choices)
PARLEY_ENUM_JSON(auction_event_kind, auction_kind_choices)

PARLEY_JSON_FROM_FIELDS(participant)
PARLEY_JSON_FROM_FIELDS(ballot_spec)
PARLEY_JSON_FROM_FIELDS(vote)
PARLEY_JSON_FROM_FIELDS(ballot_outcome)
PARLEY_JSON_FROM_FIELDS(auction_spec)
PARLEY_JSON_FROM_FIELDS(bid)
PARLEY_JSON_FROM_FIELDS(bid_score)
PARLEY_JSON_FROM_FIELDS(auction_outcome)
PARLEY_JSON_FROM_FIELDS(ballot_invite)
PARLEY_JSON_FROM_FIELDS(auction_invite)
PARLEY_JSON_FROM_FIELDS(cast_vote)
PARLEY_JSON_FROM_FIELDS(place_bid)
PARLEY_JSON_FROM_FIELDS(open_ballot)
PARLEY_JSON_FROM_FIELDS(open_auction)

void to_json(json& j, const ballot_event& x) {
  write_event(j, x);
}

void read(const json& j, const std::string& path, ballot_event& x) {
  read_event(j, path, x, "negotiation.", ballot_kind_choices);
}

void to_json(json& j, const auction_event& x) {
  write_event(j, x);
}

void read(const json& j, const std::string& path, auction_event& x) {
  read_event(j, path, x, "auction.", auction_kind_choices);
}

// The invited agents are written as their ids (read back without handles).
void to_json(json& j, const consensus_peers& x) {
  write_fields(j, x);
  auto& invited = j["invite"] = json::array();
  for (const auto& entry : x.invite)
    invited.push_back(entry.first);
}

void read(const json& j, const std::string& path, consensus_peers& x) {
  object_reader r{j, path};
  read_fields(r, x);
  std::vector<std::string> invited;
  r.optional("invite", invited);
  r.done();
  x.invite.clear();
  for (auto& id : invited)
    x.invite.emplace(std::move(id), actors::agent_actor{});
}

} // namespace parley::messages
