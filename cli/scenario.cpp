#include "cli/scenario.hpp"

#include <map>
#include <set>
#include <utility>

#include "actors/ballot/rules.hpp"
#include "actors/channel/rules.hpp"
#include "messages/enum_names.hpp"
#include "messages/input_limits.hpp"
#include "messages/json.hpp"
#include "messages/time_limits.hpp"

namespace parley::cli {

using messages::check_id_length;
using messages::json_error;
using messages::object_reader;
using nlohmann::json;

namespace {

constexpr const char* inject_type_names[] = {"agent_proposal", "agent_counter",
                                             "agent_accept", "agent_reject"};

std::string in_quotes(const std::string& x) {
  return "\"" + x + "\"";
}

/// Where each id was declared: id -> index in its section.
using id_index = std::map<std::string, std::size_t>;

/// Calls `f(item, path)` for every element of the array `j` at `path`.
template <class F> void for_each_item(const json& j, const std::string& path, F f) {
  if (!j.is_array())
    throw json_error(path, "expected an array, got " + messages::json_kind(j));
  for (std::size_t i = 0; i < j.size(); ++i)
    f(j[i], messages::path_index(path, i));
}

/// Throws unless the proposal's terms, as compact JSON, fit the text cap.
void check_terms(const messages::json_object& terms, const std::string& path) {
  messages::check_length(terms.text, messages::max_text_bytes,
                         messages::path_join(path, "terms"));
}

/// Throws unless `x` is valid; `validate` names the field at fault first
/// ("amount must be …"), so the path points at that field when it can.
void check_proposal(const messages::proposal& x, const std::string& path) {
  check_terms(x.terms, path);
  auto why = messages::validate(x);
  if (why.empty())
    return;
  auto field = why.substr(0, why.find(' '));
  if (field == "amount" || field == "currency" || field == "terms")
    throw json_error(messages::path_join(path, field), why);
  throw json_error(path, why);
}

/// Throws unless `value` is within `min..max`.
void check_range(std::int64_t value, std::int64_t min, std::int64_t max,
                 const std::string& path) {
  if (auto why = messages::check_range(value, min, max); !why.empty())
    throw json_error(path, why);
}

/// Throws unless `at_ms`, when a step is due, lies within the horizon.
void check_at(std::int64_t at_ms, const std::string& path) {
  check_range(at_ms, 0, messages::max_at_ms, path);
}

/// Throws unless `ms` is a delay, window or duration of at least `min` ms
/// and at most a year.
void check_delay(std::int64_t ms, std::int64_t min, const std::string& path) {
  check_range(ms, min, messages::max_delay_ms, path);
}

/// Throws unless every id in `ids`, read from the array at `path`, fits.
void check_id_lengths(const std::vector<std::string>& ids, const std::string& path) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    check_id_length(ids[i], messages::path_index(path, i));
}

/// Throws unless every scripted reply's think time is within range and its
/// terms fit.
void check_script(const std::vector<messages::script_reply>& script,
                  const std::string& path) {
  for (std::size_t i = 0; i < script.size(); ++i) {
    auto at = messages::path_index(path, i);
    check_delay(script[i].delay_ms, 0, messages::path_join(at, "delay_ms"));
    if (script[i].proposal && script[i].proposal->terms)
      check_terms(*script[i].proposal->terms, messages::path_join(at, "proposal"));
  }
}

/// Reads a rule brain's side: only buyer or seller may be written (leaving it
/// out infers the side from the role).
void read_side(const json& j, const std::string& path, messages::bargaining_side& x) {
  std::string text;
  messages::read(j, path, text);
  if (text == "buyer")
    x = messages::bargaining_side::buyer;
  else if (text == "seller")
    x = messages::bargaining_side::seller;
  else
    throw json_error(path, "expected one of buyer | seller, got " + in_quotes(text));
}

scenario_agent read_agent(const json& j, const std::string& path,
                          const id_index& earlier) {
  using messages::brain_kind;
  scenario_agent x;
  object_reader r{j, path};
  r.required("id", x.id);
  check_id_length(x.id, r.path_of("id"));
  if (x.id.empty())
    throw json_error(r.path_of("id"), "must not be empty");
  if (auto i = earlier.find(x.id); i != earlier.end())
    throw json_error(r.path_of("id"),
                     "duplicate agent id " + in_quotes(x.id) + " (first at " +
                         messages::path_index("agents", i->second) + ")");
  x.profile.display_name = x.id;
  r.optional("display_name", x.profile.display_name);
  r.optional("role", x.profile.role);
  check_id_length(x.profile.role, r.path_of("role"));
  r.required("brain", x.brain.kind);
  r.optional("preferences", x.profile.preferences);
  r.optional("custom_instructions", x.profile.custom_instructions);
  if (r.has("capabilities") || r.has("load")) {
    // The profile's reader checks the ranges (0..1) and names the path.
    json skills = json::object();
    if (r.has("capabilities"))
      skills["capabilities"] = r.raw("capabilities");
    if (r.has("load"))
      skills["load"] = r.raw("load");
    messages::agent_profile parsed;
    messages::read(skills, path, parsed);
    x.profile.capabilities = std::move(parsed.capabilities);
    x.profile.load = parsed.load;
  }
  r.optional("utility", x.profile.utility);
  if (r.has("side")) {
    if (x.brain.kind != brain_kind::rule && x.brain.kind != brain_kind::strategy)
      throw json_error(r.path_of("side"), "only a rule or strategy brain takes a side");
    read_side(r.raw("side"), r.path_of("side"), x.brain.side);
  }
  for (const char* key : {"strategy", "seed"})
    if (r.has(key) && x.brain.kind != brain_kind::strategy)
      throw json_error(r.path_of(key),
                       std::string{"only a strategy brain takes "} + key);
  if (x.brain.kind == brain_kind::strategy) {
    if (!r.has("strategy"))
      throw json_error(r.path_of("strategy"),
                       "a strategy brain needs a strategy (boulware | linear | "
                       "conceder | hardliner | random | tit_for_tat | micro)");
    r.required("strategy", x.brain.strategy);
    r.optional("seed", x.brain.seed);
  }
  for (const char* key : {"provider", "model", "endpoint"}) {
    if (!r.has(key))
      continue;
    if (x.brain.kind != brain_kind::llm)
      throw json_error(r.path_of(key), std::string{"only an llm brain takes "} + key);
    auto& field = std::string{key} == "provider" ? x.brain.provider
                  : std::string{key} == "model"  ? x.brain.model
                                                 : x.brain.endpoint;
    r.required(key, field);
  }
  if (!x.brain.provider.empty() && x.brain.provider != "anthropic" &&
      x.brain.provider != "openai")
    throw json_error(r.path_of("provider"), "expected one of anthropic | openai, got " +
                                                in_quotes(x.brain.provider));
  if (x.brain.kind == brain_kind::script) {
    if (!r.has("script"))
      throw json_error(r.path_of("script"),
                       "a script brain needs a script (an empty list makes a "
                       "silent agent)");
    r.required("script", x.brain.script);
    check_script(x.brain.script, r.path_of("script"));
  } else if (r.has("script")) {
    throw json_error(r.path_of("script"), "only a script brain takes a script");
  }
  r.done();
  return x;
}

scenario_room read_room(const json& j, const std::string& path, const id_index& agents,
                        const id_index& earlier) {
  scenario_room x;
  object_reader r{j, path};
  r.required("id", x.id);
  check_id_length(x.id, r.path_of("id"));
  if (x.id.empty())
    throw json_error(r.path_of("id"), "must not be empty");
  if (auto i = earlier.find(x.id); i != earlier.end())
    throw json_error(r.path_of("id"),
                     "duplicate room id " + in_quotes(x.id) + " (first at " +
                         messages::path_index("rooms", i->second) + ")");
  r.required("participants", x.participants);
  r.done();
  check_id_lengths(x.participants, r.path_of("participants"));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < x.participants.size(); ++i) {
    const auto& id = x.participants[i];
    auto at = messages::path_index(r.path_of("participants"), i);
    if (agents.count(id) == 0)
      throw json_error(at, "unknown agent " + in_quotes(id));
    if (!seen.insert(id).second)
      throw json_error(at, "agent " + in_quotes(id) + " is listed twice");
  }
  if (x.participants.size() < 2)
    throw json_error(r.path_of("participants"),
                     "a room needs at least two participants, got " +
                         std::to_string(x.participants.size()));
  return x;
}

/// Throws unless `agent` is a known agent and a participant of `room`.
void check_party(const std::string& agent, const std::string& path,
                 const scenario_room& room, const id_index& agents) {
  if (agents.count(agent) == 0)
    throw json_error(path, "unknown agent " + in_quotes(agent));
  for (const auto& participant : room.participants)
    if (participant == agent)
      return;
  throw json_error(path, "agent " + in_quotes(agent) +
                             " is not a participant of room " + in_quotes(room.id));
}

scenario_negotiation read_negotiation(const json& j, const std::string& path,
                                      const id_index& agents, const id_index& rooms,
                                      const std::vector<scenario_room>& room_list) {
  scenario_negotiation x;
  object_reader r{j, path};
  r.required("room", x.room);
  r.optional("at_ms", x.at_ms);
  r.required("initiator", x.initiator);
  r.required("responder", x.responder);
  r.required("proposal", x.proposal);
  r.optional("intent_id", x.intent_id);
  r.done();
  check_id_length(x.room, r.path_of("room"));
  check_id_length(x.initiator, r.path_of("initiator"));
  check_id_length(x.responder, r.path_of("responder"));
  check_id_length(x.intent_id, r.path_of("intent_id"));
  auto room = rooms.find(x.room);
  if (room == rooms.end())
    throw json_error(r.path_of("room"), "unknown room " + in_quotes(x.room));
  check_at(x.at_ms, r.path_of("at_ms"));
  check_party(x.initiator, r.path_of("initiator"), room_list[room->second], agents);
  check_party(x.responder, r.path_of("responder"), room_list[room->second], agents);
  if (x.initiator == x.responder)
    throw json_error(r.path_of("responder"),
                     "initiator and responder must be different agents, both are " +
                         in_quotes(x.initiator));
  check_proposal(x.proposal, r.path_of("proposal"));
  return x;
}

void check_agent(const std::string& id, const std::string& path,
                 const id_index& agents) {
  if (agents.count(id) == 0)
    throw json_error(path, "unknown agent " + in_quotes(id));
}

void check_unique(const std::string& id, const std::string& path,
                  std::set<std::string>& seen) {
  check_id_length(id, path);
  if (id.empty())
    throw json_error(path, "must not be empty");
  if (!seen.insert(id).second)
    throw json_error(path, "duplicate id " + in_quotes(id));
}

scenario_ballot read_ballot(const json& j, const std::string& path,
                            const id_index& agents, std::set<std::string>& ids) {
  scenario_ballot x;
  object_reader r{j, path};
  r.required("id", x.id);
  check_unique(x.id, r.path_of("id"), ids);
  r.optional("at_ms", x.at_ms);
  check_at(x.at_ms, r.path_of("at_ms"));
  r.required("topic", x.topic);
  r.optional("options", x.options);
  check_id_lengths(x.options, r.path_of("options"));
  r.optional("strategy", x.strategy);
  r.optional("voters", x.voters);
  check_id_lengths(x.voters, r.path_of("voters"));
  r.optional("roles", x.roles);
  check_id_lengths(x.roles, r.path_of("roles"));
  r.optional("window_ms", x.window_ms);
  check_delay(x.window_ms, 1, r.path_of("window_ms"));
  r.optional("task", x.task);
  check_id_length(x.task, r.path_of("task"));
  if (x.voters.empty() && x.roles.empty())
    throw json_error(path, "a ballot needs voters or roles");
  for (std::size_t i = 0; i < x.voters.size(); ++i)
    check_agent(x.voters[i], messages::path_index(r.path_of("voters"), i), agents);
  if (r.has("votes"))
    for_each_item(r.raw("votes"), r.path_of("votes"),
                  [&](const json& v, const std::string& vpath) {
                    scenario_vote vote;
                    object_reader vr{v, vpath};
                    vr.required("at_ms", vote.at_ms);
                    vr.required("voter", vote.voter);
                    vr.required("option", vote.option);
                    vr.done();
                    check_id_length(vote.voter, vr.path_of("voter"));
                    check_id_length(vote.option, vr.path_of("option"));
                    check_agent(vote.voter, vr.path_of("voter"), agents);
                    check_at(vote.at_ms, vr.path_of("at_ms"));
                    if (vote.at_ms < x.at_ms)
                      throw json_error(vr.path_of("at_ms"),
                                       "a vote cannot come before its ballot opens");
                    x.votes.push_back(std::move(vote));
                  });
  r.done();
  messages::ballot_spec spec;
  spec.id = x.id;
  spec.options = x.options;
  spec.strategy = x.strategy;
  spec.voters = {{"check", ""}};
  if (auto why = actors::ballot::validate(spec); !why.empty())
    throw json_error(path, why);
  return x;
}

scenario_auction read_auction(const json& j, const std::string& path,
                              const id_index& agents, std::set<std::string>& ids) {
  scenario_auction x;
  object_reader r{j, path};
  r.required("id", x.id);
  check_unique(x.id, r.path_of("id"), ids);
  r.optional("at_ms", x.at_ms);
  check_at(x.at_ms, r.path_of("at_ms"));
  r.required("task", x.task);
  check_id_length(x.task, r.path_of("task"));
  r.required("invited", x.invited);
  check_id_lengths(x.invited, r.path_of("invited"));
  if (x.invited.empty())
    throw json_error(r.path_of("invited"), "must not be empty");
  for (std::size_t i = 0; i < x.invited.size(); ++i)
    check_agent(x.invited[i], messages::path_index(r.path_of("invited"), i), agents);
  r.optional("window_ms", x.window_ms);
  check_delay(x.window_ms, 1, r.path_of("window_ms"));
  r.optional("base_duration_ms", x.base_duration_ms);
  check_delay(x.base_duration_ms, 1, r.path_of("base_duration_ms"));
  if (r.has("bids"))
    for_each_item(r.raw("bids"), r.path_of("bids"),
                  [&](const json& b, const std::string& bpath) {
                    scenario_bid bid;
                    object_reader br{b, bpath};
                    br.required("at_ms", bid.at_ms);
                    br.required("bidder", bid.bidder);
                    br.required("capability", bid.capability);
                    br.required("load", bid.load);
                    br.required("estimated_duration_ms", bid.estimated_duration_ms);
                    br.done();
                    check_id_length(bid.bidder, br.path_of("bidder"));
                    check_agent(bid.bidder, br.path_of("bidder"), agents);
                    check_at(bid.at_ms, br.path_of("at_ms"));
                    check_delay(bid.estimated_duration_ms, 1,
                                br.path_of("estimated_duration_ms"));
                    if (bid.at_ms < x.at_ms)
                      throw json_error(br.path_of("at_ms"),
                                       "a bid cannot come before its auction opens");
                    x.bids.push_back(std::move(bid));
                  });
  r.done();
  return x;
}

scenario_inject read_inject(const json& j, const std::string& path,
                            const id_index& rooms) {
  scenario_inject x;
  object_reader r{j, path};
  r.optional("at_ms", x.at_ms);
  check_at(x.at_ms, r.path_of("at_ms"));
  r.required("room", x.room);
  check_id_length(x.room, r.path_of("room"));
  if (rooms.count(x.room) == 0)
    throw json_error(r.path_of("room"), "unknown room " + in_quotes(x.room));
  r.required("from", x.from);
  check_id_length(x.from, r.path_of("from"));
  std::string type;
  r.required("type", type);
  if (!from_string(type, x.type))
    throw json_error(r.path_of("type"), "expected one of " +
                                            messages::enum_choices(inject_type_names) +
                                            ", got " + in_quotes(type));
  r.optional("negotiation", x.negotiation);
  check_id_length(x.negotiation, r.path_of("negotiation"));
  if (x.negotiation.empty())
    throw json_error(
        r.path_of("negotiation"),
        "expected \"current\", \"previous\" or a negotiation id, got an empty string");
  auto carries_proposal =
      x.type == inject_type::agent_proposal || x.type == inject_type::agent_counter;
  if (r.has("proposal")) {
    if (!carries_proposal)
      throw json_error(r.path_of("proposal"), "an " + type + " carries no proposal");
    messages::proposal proposal;
    r.required("proposal", proposal);
    check_terms(proposal.terms, r.path_of("proposal"));
    x.proposal = std::move(proposal);
  } else if (carries_proposal) {
    throw json_error(r.path_of("proposal"), "an " + type + " needs a proposal");
  }
  if (r.has("reason")) {
    if (x.type != inject_type::agent_counter && x.type != inject_type::agent_reject)
      throw json_error(r.path_of("reason"), "an " + type + " carries no reason");
    r.required("reason", x.reason);
  }
  r.optional("message_id", x.message_id);
  check_id_length(x.message_id, r.path_of("message_id"));
  r.done();
  return x;
}

scenario_transcript read_transcript(const json& j, const std::string& path,
                                    const id_index& rooms) {
  scenario_transcript x;
  object_reader r{j, path};
  r.optional("at_ms", x.at_ms);
  check_at(x.at_ms, r.path_of("at_ms"));
  r.required("room", x.room);
  check_id_length(x.room, r.path_of("room"));
  if (rooms.count(x.room) == 0)
    throw json_error(r.path_of("room"), "unknown room " + in_quotes(x.room));
  r.optional("source", x.source);
  check_id_length(x.source, r.path_of("source"));
  r.required("speaker", x.speaker);
  check_id_length(x.speaker, r.path_of("speaker"));
  r.required("text", x.text);
  r.done();
  return x;
}

messages::channel_member_spec read_channel_agent(const json& j, const std::string& path,
                                                 id_index& earlier) {
  messages::channel_member_spec x;
  messages::read(j, path, x);
  auto id_path = messages::path_join(messages::path_join(path, "profile"), "agent_id");
  check_id_length(x.profile.agent_id, id_path);
  check_id_lengths(
      x.profile.capabilities,
      messages::path_join(messages::path_join(path, "profile"), "capabilities"));
  if (auto why = messages::validate(x); !why.empty())
    throw json_error(path, why);
  if (auto i = earlier.find(x.profile.agent_id); i != earlier.end())
    throw json_error(id_path, "duplicate channel agent id " +
                                  in_quotes(x.profile.agent_id) + " (first at " +
                                  messages::path_index("channel_agents", i->second) +
                                  ")");
  earlier.emplace(x.profile.agent_id, earlier.size());
  return x;
}

constexpr const char* expected_status_choices = "finalized | force_finalized | failed";

demand_expectation read_expectation(const json& j, const std::string& path,
                                    const id_index& channel_agents) {
  demand_expectation x;
  object_reader r{j, path};
  std::string status;
  r.required("status", status);
  if (!messages::from_string(status, x.status) ||
      x.status == messages::demand_status::processing)
    throw json_error(r.path_of("status"), std::string{"expected one of "} +
                                              expected_status_choices + ", got " +
                                              in_quotes(status));
  if (r.has("reason")) {
    std::string reason;
    r.required("reason", reason);
    actors::channel::failure_reason parsed;
    if (!actors::channel::from_string(reason, parsed))
      throw json_error(r.path_of("reason"),
                       "expected one of low_acceptance | no_participants | "
                       "max_rounds_exceeded | timeout | max_recovery_attempts, got " +
                           in_quotes(reason));
    if (x.status != messages::demand_status::failed)
      throw json_error(r.path_of("reason"), "only a failed demand has a reason");
    x.reason = std::move(reason);
  }
  if (r.has("confirmed")) {
    std::vector<std::string> confirmed;
    r.required("confirmed", confirmed);
    for (std::size_t i = 0; i < confirmed.size(); ++i)
      if (channel_agents.count(confirmed[i]) == 0)
        throw json_error(messages::path_index(r.path_of("confirmed"), i),
                         "unknown channel agent " + in_quotes(confirmed[i]));
    x.confirmed = std::move(confirmed);
  }
  if (r.has("rounds")) {
    std::int32_t rounds = 0;
    r.required("rounds", rounds);
    check_range(rounds, 1, 20, r.path_of("rounds"));
    x.rounds = rounds;
  }
  if (r.has("subchannels")) {
    std::int32_t count = 0;
    r.required("subchannels", count);
    check_range(count, 0, 1000, r.path_of("subchannels"));
    x.subchannels = count;
  }
  r.done();
  return x;
}

scenario_demand read_demand(const json& j, const std::string& path,
                            const id_index& channel_agents,
                            std::set<std::string>& ids) {
  scenario_demand x;
  object_reader r{j, path};
  r.optional("at_ms", x.at_ms);
  check_at(x.at_ms, r.path_of("at_ms"));
  r.required("raw_input", x.raw_input);
  if (x.raw_input.find_first_not_of(" \t\r\n") == std::string::npos)
    throw json_error(r.path_of("raw_input"), "must not be empty");
  r.optional("demand_id", x.demand_id);
  if (r.has("demand_id"))
    check_unique(x.demand_id, r.path_of("demand_id"), ids);
  r.optional("user_id", x.user_id);
  check_id_length(x.user_id, r.path_of("user_id"));
  if (r.has("expect"))
    x.expect = read_expectation(r.raw("expect"), r.path_of("expect"), channel_agents);
  r.done();
  if (channel_agents.empty())
    throw json_error(path, "a demand needs channel_agents to take it up");
  return x;
}

scenario read_scenario(const json& doc) {
  scenario x;
  object_reader r{doc, {}};
  const auto& config = r.raw("config");
  const auto& agents = r.raw("agents");
  const auto& rooms = r.raw("rooms");
  const auto& negotiations = r.raw("negotiations");
  const auto& inject = r.raw("inject");
  const auto& transcripts = r.raw("transcripts");
  const auto& ballots = r.raw("ballots");
  const auto& auctions = r.raw("auctions");
  const auto& channel_agents = r.raw("channel_agents");
  const auto& demands = r.raw("demands");
  r.done();
  if (!config.is_null()) {
    if (!config.is_object())
      throw json_error("config",
                       "expected an object, got " + messages::json_kind(config));
    x.config = config;
  }
  // A scenario of channels alone needs no agents or rooms.
  auto channels_only = !channel_agents.is_null();
  if (agents.is_null() && !channels_only)
    throw json_error("agents", "required field is missing");
  id_index agent_ids;
  if (!agents.is_null())
    for_each_item(agents, "agents", [&](const json& j, const std::string& path) {
      x.agents.push_back(read_agent(j, path, agent_ids));
      agent_ids.emplace(x.agents.back().id, x.agents.size() - 1);
    });
  if (rooms.is_null() && !channels_only)
    throw json_error("rooms", "required field is missing");
  id_index room_ids;
  if (!rooms.is_null())
    for_each_item(rooms, "rooms", [&](const json& j, const std::string& path) {
      x.rooms.push_back(read_room(j, path, agent_ids, room_ids));
      room_ids.emplace(x.rooms.back().id, x.rooms.size() - 1);
    });
  if (!negotiations.is_null())
    for_each_item(negotiations, "negotiations",
                  [&](const json& j, const std::string& path) {
                    x.negotiations.push_back(
                        read_negotiation(j, path, agent_ids, room_ids, x.rooms));
                  });
  if (!inject.is_null())
    for_each_item(inject, "inject", [&](const json& j, const std::string& path) {
      x.inject.push_back(read_inject(j, path, room_ids));
    });
  if (!transcripts.is_null())
    for_each_item(transcripts, "transcripts",
                  [&](const json& j, const std::string& path) {
                    x.transcripts.push_back(read_transcript(j, path, room_ids));
                  });
  std::set<std::string> consensus_ids;
  if (!ballots.is_null())
    for_each_item(ballots, "ballots", [&](const json& j, const std::string& path) {
      x.ballots.push_back(read_ballot(j, path, agent_ids, consensus_ids));
    });
  if (!auctions.is_null())
    for_each_item(auctions, "auctions", [&](const json& j, const std::string& path) {
      x.auctions.push_back(read_auction(j, path, agent_ids, consensus_ids));
    });
  id_index channel_agent_ids;
  if (channels_only)
    for_each_item(
        channel_agents, "channel_agents", [&](const json& j, const std::string& path) {
          x.channel_agents.push_back(read_channel_agent(j, path, channel_agent_ids));
        });
  std::set<std::string> demand_ids;
  if (!demands.is_null())
    for_each_item(demands, "demands", [&](const json& j, const std::string& path) {
      x.demands.push_back(read_demand(j, path, channel_agent_ids, demand_ids));
    });
  return x;
}

/// json_error's text is "<path>: <reason>"; these take it apart again.
std::string location_of(const json_error& e) {
  return e.path().empty() ? std::string{"(document)"} : e.path();
}

std::string reason_of(const json_error& e) {
  std::string what = e.what();
  auto prefix = location_of(e) + ": ";
  return what.compare(0, prefix.size(), prefix) == 0 ? what.substr(prefix.size())
                                                     : what;
}

} // namespace

scenario_error::scenario_error(std::string source, std::string location,
                               std::string reason)
    : std::runtime_error(source + ": " + (location.empty() ? "" : location + ": ") +
                         reason),
      source_(std::move(source)), location_(std::move(location)),
      reason_(std::move(reason)) {}

scenario parse_scenario(const std::string& text, const std::string& source_name) {
  try {
    auto doc = messages::parse_json(text);
    messages::check_input_limits(doc);
    return read_scenario(doc);
  } catch (const json_error& e) {
    throw scenario_error(source_name, location_of(e), reason_of(e));
  }
}

scenario load_scenario(const std::string& path, std::size_t max_bytes) {
  auto file = messages::read_text_file(path, max_bytes);
  if (!file.error.empty())
    throw scenario_error(path, {}, file.error);
  return parse_scenario(file.text, path);
}

std::string to_string(inject_type x) {
  return messages::enum_name(inject_type_names, x);
}

bool from_string(const std::string& text, inject_type& x) {
  return messages::enum_from_name(inject_type_names, text, x);
}

bool scenario::has_llm_agents() const {
  for (const auto& a : agents)
    if (a.brain.kind == messages::brain_kind::llm)
      return true;
  return false;
}

} // namespace parley::cli
