#include "messages/json.hpp"

#include <cmath>

#include "messages/enum_names.hpp"
#include "messages/json_fields.hpp"
#include "messages/time_limits.hpp"

namespace parley::messages {

using nlohmann::json;

namespace {

// The choices listed in error messages for each enum.
constexpr const char* negotiation_status_choices =
    "proposed | countering | accepted | rejected | expired";
constexpr const char* action_choices = "propose | counter | accept | reject";
constexpr const char* kind_choices = "started | updated | agreed | rejected | expired";
constexpr const char* severity_choices = "error | warning";
constexpr const char* escrow_choices = "always | never | above_threshold";
constexpr const char* style_choices = "aggressive | balanced | conservative";
constexpr const char* brain_choices = "rule | script | llm | external | strategy";
constexpr const char* strategy_choices =
    "boulware | linear | conceder | hardliner | random | tit_for_tat | micro";
constexpr const char* side_choices = "from_role | buyer | seller";
constexpr const char* reply_choices = "counter | accept | reject | silent";

} // namespace

// -- enums --------------------------------------------------------------------

// Enums are written as their snake_case names, not as CAF's integers.

PARLEY_ENUM_JSON(negotiation_status, negotiation_status_choices)
PARLEY_ENUM_JSON(round_action, action_choices)
PARLEY_ENUM_JSON(negotiation_event_kind, kind_choices)
PARLEY_ENUM_JSON(severity, severity_choices)
PARLEY_ENUM_JSON(escrow_preference, escrow_choices)
PARLEY_ENUM_JSON(negotiation_style, style_choices)
PARLEY_ENUM_JSON(brain_kind, brain_choices)
PARLEY_ENUM_JSON(strategy_kind, strategy_choices)
PARLEY_ENUM_JSON(bargaining_side, side_choices)
PARLEY_ENUM_JSON(reply_action, reply_choices)

// Error codes are written as their codes ("E012").
void to_json(json& j, const error_code& x) {
  j = to_code(x);
}

void read(const json& j, const std::string& path, error_code& x) {
  std::string text;
  read(j, path, text);
  if (!from_code(text, x))
    throw json_error(path,
                     "expected an error code such as \"E012\", got \"" + text + "\"");
}

// -- proposals ----------------------------------------------------------------

// A json_object is embedded as the JSON object it holds.
void to_json(json& j, const json_object& x) {
  j = json::parse(x.text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    j = json::object();
}

void read(const json& j, const std::string& path, json_object& x) {
  if (!j.is_object())
    throw json_error(path, "expected a JSON object, got " + json_kind(j));
  x.text = j.dump();
}

PARLEY_JSON_FROM_FIELDS(proposal)
PARLEY_JSON_FROM_FIELDS(proposal_patch)

// -- negotiation records ------------------------------------------------------

PARLEY_JSON_FROM_FIELDS(negotiation_round)
PARLEY_JSON_FROM_FIELDS(utility_pair)
PARLEY_JSON_FROM_FIELDS(offer_utilities)
PARLEY_JSON_FROM_FIELDS(deal_score)
PARLEY_JSON_FROM_FIELDS(negotiation_record)

void to_json(json& j, const incentive_split& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, incentive_split& x) {
  read_fields(j, path, x);
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

void to_json(json& j, const negotiation_settings& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, negotiation_settings& x) {
  read_fields(j, path, x);
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

void to_json(json& j, const channel_settings& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, channel_settings& x) {
  read_fields(j, path, x);
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

// -- agent messages -----------------------------------------------------------

namespace {

/// Checks the "type" discriminator written by to_json, when present.
void check_type(object_reader& r, const char* expected) {
  if (!r.has("type"))
    return;
  std::string type;
  r.required("type", type);
  if (type != expected)
    throw json_error(r.path_of("type"), std::string{"expected \""} + expected +
                                            "\", got \"" + type + "\"");
}

} // namespace

// The agent messages carry their type name in a "type" field.
#define PARLEY_TAGGED_JSON(type)                                                       \
  void to_json(json& j, const type& x) {                                               \
    write_fields(j, x);                                                                \
    j["type"] = #type;                                                                 \
  }                                                                                    \
  void read(const json& j, const std::string& path, type& x) {                         \
    object_reader r{j, path};                                                          \
    check_type(r, #type);                                                              \
    read_fields(r, x);                                                                 \
    r.done();                                                                          \
  }

PARLEY_TAGGED_JSON(agent_proposal)
PARLEY_TAGGED_JSON(agent_counter)
PARLEY_TAGGED_JSON(agent_accept)
PARLEY_TAGGED_JSON(agent_reject)

#undef PARLEY_TAGGED_JSON

PARLEY_JSON_FROM_FIELDS(answer_terms)

// -- commands -----------------------------------------------------------------

PARLEY_JSON_FROM_FIELDS(start_negotiation)
PARLEY_JSON_FROM_FIELDS(negotiation_opened)
PARLEY_JSON_FROM_FIELDS(negotiation_opening)
PARLEY_JSON_FROM_FIELDS(negotiation_peers)
PARLEY_JSON_FROM_FIELDS(open_negotiation)
PARLEY_JSON_FROM_FIELDS(resume_negotiation)
PARLEY_JSON_FROM_FIELDS(room_member)
PARLEY_JSON_FROM_FIELDS(join_room)
PARLEY_JSON_FROM_FIELDS(event_sink)
PARLEY_JSON_FROM_FIELDS(room_spec)
PARLEY_JSON_FROM_FIELDS(barrier)
PARLEY_JSON_FROM_FIELDS(initiate_negotiation)
PARLEY_JSON_FROM_FIELDS(start_deadline)
PARLEY_JSON_FROM_FIELDS(timer_tick)
PARLEY_JSON_FROM_FIELDS(arm_timer)
PARLEY_JSON_FROM_FIELDS(room_request)
PARLEY_JSON_FROM_FIELDS(room_view)
PARLEY_JSON_FROM_FIELDS(recovery_report)

// A set of topics is an array of their names.
void to_json(json& j, const topic_set& x) {
  j = json::array();
  for (std::size_t i = 0; i < topic_count; ++i)
    if (x.contains(static_cast<topic>(i)))
      j.push_back(name_of(static_cast<topic>(i)));
}

void read(const json& j, const std::string& path, topic_set& x) {
  std::vector<std::string> names;
  read(j, path, names);
  x = topic_set{};
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto one = topic_set::matching(names[i]);
    if (one.empty() || names[i].back() == '*')
      throw json_error(path_index(path, i), "unknown topic \"" + names[i] + "\"");
    x = x | one;
  }
}

// -- events -------------------------------------------------------------------

void to_json(json& j, const negotiation_event& x) {
  write_event(j, x);
}

void read(const json& j, const std::string& path, negotiation_event& x) {
  read_event(j, path, x, "negotiation.", kind_choices);
}

PARLEY_JSON_FROM_FIELDS(problem_event)

// The summary line is tagged "type": "summary", and has the ballot and auction counts
// only in runs that had ballots or auctions.
void to_json(json& j, const run_summary& x) {
  write_fields(j, x);
  j["type"] = "summary";
  if (x.ballots == 0 && x.auctions == 0)
    for (auto key : {"ballots", "ballots_approved", "ballots_rejected", "auctions",
                     "auctions_awarded"})
      j.erase(key);
}

void read(const json& j, const std::string& path, run_summary& x) {
  object_reader r{j, path};
  r.raw("type");
  read_fields(r, x);
  r.done();
}

// -- agents -------------------------------------------------------------------

PARLEY_JSON_FROM_FIELDS(amount_issue)
PARLEY_JSON_FROM_FIELDS(outcome_domain)

// A term's values are JSON scalars (7, "express", true), kept as their compact
// text so that a proposal's term compares with them as text.
void to_json(json& j, const term_issue& x) {
  j = json::object();
  j["name"] = x.name;
  auto values = json::array();
  for (const auto& v : x.values)
    values.push_back(json::parse(v, nullptr, false));
  j["values"] = std::move(values);
}

void read(const json& j, const std::string& path, term_issue& x) {
  object_reader r{j, path};
  r.required("name", x.name);
  const auto& values = r.raw("values");
  auto at = path_join(path, "values");
  if (!values.is_array())
    throw json_error(at, "expected an array of strings, numbers or booleans");
  x.values.clear();
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& v = values[i];
    if (!v.is_string() && !v.is_number() && !v.is_boolean())
      throw json_error(at + "[" + std::to_string(i) + "]",
                       "expected a string, a number or a boolean");
    x.values.push_back(v.dump());
  }
  r.done();
}

void to_json(json& j, const utility_spec& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, utility_spec& x) {
  read_fields(j, path, x);
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

PARLEY_JSON_FROM_FIELDS(party_valuation)

void to_json(json& j, const agent_preferences& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, agent_preferences& x) {
  read_fields(j, path, x);
  auto at = [&](const char* key) {
    return path_join(path, key);
  };
  if (x.max_auto_approve_amount < 0)
    throw json_error(at("max_auto_approve_amount"),
                     "must not be negative, got " +
                         std::to_string(x.max_auto_approve_amount));
  if (x.reservation_amount && *x.reservation_amount < 0)
    throw json_error(at("reservation_amount"),
                     "must not be negative, got " +
                         std::to_string(*x.reservation_amount));
  if (x.escrow_threshold < 0)
    throw json_error(at("escrow_threshold"),
                     "must not be negative, got " + std::to_string(x.escrow_threshold));
  if (!is_currency_code(x.preferred_currency))
    throw json_error(at("preferred_currency"),
                     "expected an ISO 4217 code such as GBP, got \"" +
                         x.preferred_currency + "\"");
}

void to_json(json& j, const agent_profile& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, agent_profile& x) {
  read_fields(j, path, x);
  auto in_unit = [](double v) {
    return std::isfinite(v) && v >= 0.0 && v <= 1.0;
  };
  auto caps_path = path_join(path, "capabilities");
  for (const auto& [name, value] : x.capabilities)
    if (!in_unit(value))
      throw json_error(path_join(caps_path, name), "must be within 0..1");
  if (!in_unit(x.load))
    throw json_error(path_join(path, "load"), "must be within 0..1");
}

void to_json(json& j, const script_reply& x) {
  write_fields(j, x);
}

void read(const json& j, const std::string& path, script_reply& x) {
  read_fields(j, path, x);
  auto at = [&](const char* key) {
    return path_join(path, key);
  };
  if (auto why = check_range(x.delay_ms, 0, max_delay_ms); !why.empty())
    throw json_error(at("delay_ms"), why);
  if (x.action == reply_action::counter && (!x.proposal || !x.proposal->amount))
    throw json_error(at("proposal"),
                     "a counter needs a proposal with at least an amount");
  if (x.proposal && x.proposal->amount && *x.proposal->amount <= 0)
    throw json_error(at("proposal") + ".amount",
                     "amount must be a positive integer in minor units, got " +
                         std::to_string(*x.proposal->amount));
}

// Only an LLM brain has a provider, a model and an endpoint, and only a
// strategy brain a strategy and a seed.
void to_json(json& j, const brain_spec& x) {
  write_fields(j, x);
  if (x.kind != brain_kind::llm)
    for (auto key : {"provider", "model", "endpoint"})
      j.erase(key);
  if (x.kind != brain_kind::strategy)
    for (auto key : {"strategy", "seed"})
      j.erase(key);
}

void read(const json& j, const std::string& path, brain_spec& x) {
  read_fields(j, path, x);
}

PARLEY_JSON_FROM_FIELDS(agent_spec)

// -- internal messages ----------------------------------------------------------

PARLEY_JSON_FROM_FIELDS(timer_due)
PARLEY_JSON_FROM_FIELDS(decision)
PARLEY_JSON_FROM_FIELDS(deferred_reply)

// -- the store --------------------------------------------------------------------

PARLEY_JSON_FROM_FIELDS(store_query)
PARLEY_JSON_FROM_FIELDS(store_page)
PARLEY_JSON_FROM_FIELDS(agent_success)
PARLEY_JSON_FROM_FIELDS(outcome_rounds)
PARLEY_JSON_FROM_FIELDS(state_count)
PARLEY_JSON_FROM_FIELDS(expiration_rate)
PARLEY_JSON_FROM_FIELDS(converging_negotiation)
PARLEY_JSON_FROM_FIELDS(percentiles)
PARLEY_JSON_FROM_FIELDS(score_means)
PARLEY_JSON_FROM_FIELDS(outcome_figures)
PARLEY_JSON_FROM_FIELDS(store_stats)
PARLEY_JSON_FROM_FIELDS(channel_record)

} // namespace parley::messages
