// JSON mapping of seed 004's wire types (declared in json.hpp).

#include <cmath>

#include "messages/enum_names.hpp"
#include "messages/json.hpp"

namespace parley::messages {

using nlohmann::json;

namespace {

constexpr const char* strategy_choices = "majority | unanimous | weighted | veto";
constexpr const char* ballot_status_choices = "approved | rejected";
constexpr const char* ballot_kind_choices = "propose | vote | result";
constexpr const char* auction_status_choices = "awarded | no_bids";
constexpr const char* auction_kind_choices = "bid | result";

template <class T>
void put_optional(json& j, const char* key, const caf::optional<T>& x) {
  if (x)
    j[key] = *x;
}

void read_tallies(const json& j, const std::string& path,
                  std::map<std::string, std::int64_t>& xs) {
  if (!j.is_object())
    throw json_error(path, "expected an object, got " + json_kind(j));
  xs.clear();
  for (auto i = j.begin(); i != j.end(); ++i) {
    std::int64_t value = 0;
    read(i.value(), path_join(path, i.key()), value);
    xs.emplace(i.key(), value);
  }
}

/// Reads a "type" field `prefix.<kind>`.
template <class Kind>
void read_kind(object_reader& r, const std::string& prefix, Kind& x,
               const char* choices) {
  std::string type;
  r.required("type", type);
  if (type.compare(0, prefix.size(), prefix) != 0 ||
      !from_string(type.substr(prefix.size()), x))
    throw json_error(r.path_of("type"),
                     "expected " + prefix + "<" + choices + ">, got \"" + type + "\"");
}

} // namespace

#define PARLEY_ENUM_JSON(type, choices)                                                \
  void to_json(json& j, const type& x) {                                               \
    j = to_string(x);                                                                  \
  }                                                                                    \
  void read(const json& j, const std::string& path, type& x) {                         \
    read_enum(j, path, x, choices);                                                    \
  }

PARLEY_ENUM_JSON(ballot_strategy, strategy_choices)
PARLEY_ENUM_JSON(ballot_status, ballot_status_choices)
PARLEY_ENUM_JSON(ballot_event_kind, ballot_kind_choices)
PARLEY_ENUM_JSON(auction_status, auction_status_choices)
PARLEY_ENUM_JSON(auction_event_kind, auction_kind_choices)

#undef PARLEY_ENUM_JSON

void to_json(json& j, const participant& x) {
  j = json{{"agent_id", x.agent_id}, {"role", x.role}};
}

void read(const json& j, const std::string& path, participant& x) {
  object_reader r{j, path};
  r.required("agent_id", x.agent_id);
  r.optional("role", x.role);
  r.done();
}

void to_json(json& j, const ballot_spec& x) {
  j = json{{"id", x.id},           {"topic", x.topic},
           {"options", x.options}, {"strategy", x.strategy},
           {"voters", x.voters},   {"window_ms", x.window_ms},
           {"task", x.task}};
}

void read(const json& j, const std::string& path, ballot_spec& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.required("topic", x.topic);
  r.optional("options", x.options);
  r.optional("strategy", x.strategy);
  r.required("voters", x.voters);
  r.optional("window_ms", x.window_ms);
  r.optional("task", x.task);
  r.done();
}

void to_json(json& j, const vote& x) {
  j = json{{"ballot_id", x.ballot_id}, {"voter", x.voter}, {"option", x.option}};
}

void read(const json& j, const std::string& path, vote& x) {
  object_reader r{j, path};
  r.required("ballot_id", x.ballot_id);
  r.required("voter", x.voter);
  r.required("option", x.option);
  r.done();
}

void to_json(json& j, const ballot_outcome& x) {
  j = json{{"status", x.status},     {"winner", x.winner}, {"tallies", x.tallies},
           {"eligible", x.eligible}, {"voted", x.voted},   {"early", x.early},
           {"reason", x.reason}};
}

void read(const json& j, const std::string& path, ballot_outcome& x) {
  object_reader r{j, path};
  r.required("status", x.status);
  r.optional("winner", x.winner);
  if (r.has("tallies"))
    read_tallies(r.raw("tallies"), r.path_of("tallies"), x.tallies);
  r.required("eligible", x.eligible);
  r.required("voted", x.voted);
  r.optional("early", x.early);
  r.optional("reason", x.reason);
  r.done();
}

void to_json(json& j, const ballot_event& x) {
  j = json{{"type", name_of(topic_of(x))},
           {"at_ms", x.at_ms},
           {"ballot_id", x.ballot_id},
           {"topic", x.topic}};
  put_optional(j, "spec", x.spec);
  put_optional(j, "vote", x.cast);
  put_optional(j, "outcome", x.outcome);
}

void read(const json& j, const std::string& path, ballot_event& x) {
  object_reader r{j, path};
  read_kind(r, "negotiation.", x.kind, ballot_kind_choices);
  r.required("at_ms", x.at_ms);
  r.required("ballot_id", x.ballot_id);
  r.optional("topic", x.topic);
  r.optional("spec", x.spec);
  r.optional("vote", x.cast);
  r.optional("outcome", x.outcome);
  r.done();
}

void to_json(json& j, const auction_spec& x) {
  j = json{{"id", x.id},
           {"task", x.task},
           {"invited", x.invited},
           {"window_ms", x.window_ms},
           {"base_duration_ms", x.base_duration_ms}};
}

void read(const json& j, const std::string& path, auction_spec& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.required("task", x.task);
  r.required("invited", x.invited);
  r.optional("window_ms", x.window_ms);
  r.optional("base_duration_ms", x.base_duration_ms);
  r.done();
}

void to_json(json& j, const bid& x) {
  j = json{{"auction_id", x.auction_id},
           {"bidder", x.bidder},
           {"capability", x.capability},
           {"load", x.load},
           {"estimated_duration_ms", x.estimated_duration_ms}};
}

void read(const json& j, const std::string& path, bid& x) {
  object_reader r{j, path};
  r.required("auction_id", x.auction_id);
  r.required("bidder", x.bidder);
  r.required("capability", x.capability);
  r.required("load", x.load);
  r.required("estimated_duration_ms", x.estimated_duration_ms);
  r.done();
}

void to_json(json& j, const bid_score& x) {
  j = json{{"bidder", x.bidder},
           {"role", x.role},
           {"score", x.score},
           {"capability", x.capability},
           {"availability", x.availability},
           {"speed", x.speed}};
}

void read(const json& j, const std::string& path, bid_score& x) {
  object_reader r{j, path};
  r.required("bidder", x.bidder);
  r.optional("role", x.role);
  r.required("score", x.score);
  r.required("capability", x.capability);
  r.required("availability", x.availability);
  r.required("speed", x.speed);
  r.done();
}

void to_json(json& j, const auction_outcome& x) {
  j = json{{"status", x.status},
           {"winner", x.winner},
           {"ranking", x.ranking},
           {"reason", x.reason}};
}

void read(const json& j, const std::string& path, auction_outcome& x) {
  object_reader r{j, path};
  r.required("status", x.status);
  r.optional("winner", x.winner);
  r.optional("ranking", x.ranking);
  r.optional("reason", x.reason);
  r.done();
}

void to_json(json& j, const auction_event& x) {
  j = json{{"type", name_of(topic_of(x))},
           {"at_ms", x.at_ms},
           {"auction_id", x.auction_id},
           {"task", x.task}};
  put_optional(j, "bid", x.placed);
  put_optional(j, "outcome", x.outcome);
}

void read(const json& j, const std::string& path, auction_event& x) {
  object_reader r{j, path};
  read_kind(r, "auction.", x.kind, auction_kind_choices);
  r.required("at_ms", x.at_ms);
  r.required("auction_id", x.auction_id);
  r.optional("task", x.task);
  r.optional("bid", x.placed);
  r.optional("outcome", x.outcome);
  r.done();
}

// Actor handles have no JSON form (see json.cpp): written as whether they are
// set, read back as unset.
void to_json(json& j, const ballot_invite& x) {
  j = json{{"ballot", static_cast<bool>(x.ballot)}, {"spec", x.spec}};
}

void read(const json& j, const std::string& path, ballot_invite& x) {
  object_reader r{j, path};
  r.raw("ballot");
  r.required("spec", x.spec);
  r.done();
}

void to_json(json& j, const auction_invite& x) {
  j = json{{"auction", static_cast<bool>(x.auction)}, {"spec", x.spec}};
}

void read(const json& j, const std::string& path, auction_invite& x) {
  object_reader r{j, path};
  r.raw("auction");
  r.required("spec", x.spec);
  r.done();
}

void to_json(json& j, const cast_vote& x) {
  j = json{{"ballot", static_cast<bool>(x.ballot)}, {"vote", x.vote}};
}

void read(const json& j, const std::string& path, cast_vote& x) {
  object_reader r{j, path};
  r.raw("ballot");
  r.required("vote", x.vote);
  r.done();
}

void to_json(json& j, const place_bid& x) {
  j = json{{"auction", static_cast<bool>(x.auction)}, {"bid", x.bid}};
}

void read(const json& j, const std::string& path, place_bid& x) {
  object_reader r{j, path};
  r.raw("auction");
  r.required("bid", x.bid);
  r.done();
}

/// The invited agents are written as their ids (read back without handles).
void to_json(json& j, const consensus_peers& x) {
  auto invited = json::array();
  for (const auto& entry : x.invite)
    invited.push_back(entry.first);
  j = json{{"events", x.events},
           {"reporter", static_cast<bool>(x.reporter)},
           {"invite", std::move(invited)}};
}

void read(const json& j, const std::string& path, consensus_peers& x) {
  object_reader r{j, path};
  r.optional("events", x.events);
  r.raw("reporter");
  std::vector<std::string> invited;
  r.optional("invite", invited);
  r.done();
  x.invite.clear();
  for (auto& id : invited)
    x.invite.emplace(std::move(id), actors::agent_actor{});
}

void to_json(json& j, const open_ballot& x) {
  j = json{{"spec", x.spec}, {"with", x.with}, {"timers", static_cast<bool>(x.timers)}};
}

void read(const json& j, const std::string& path, open_ballot& x) {
  object_reader r{j, path};
  r.required("spec", x.spec);
  r.required("with", x.with);
  r.raw("timers");
  r.done();
}

void to_json(json& j, const open_auction& x) {
  j = json{{"spec", x.spec}, {"with", x.with}, {"timers", static_cast<bool>(x.timers)}};
}

void read(const json& j, const std::string& path, open_auction& x) {
  object_reader r{j, path};
  r.required("spec", x.spec);
  r.required("with", x.with);
  r.raw("timers");
  r.done();
}

} // namespace parley::messages
