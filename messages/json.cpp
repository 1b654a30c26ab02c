#include "messages/json.hpp"

#include <cmath>

#include "messages/enum_names.hpp"
#include "messages/time_limits.hpp"

namespace parley::messages {

using nlohmann::json;

namespace {

/// Writes an optional as null when absent.
template <class T> json optional_json(const caf::optional<T>& x) {
  return x ? json(*x) : json(nullptr);
}

template <class Enum> void write_enum(json& j, Enum x) {
  j = to_string(x);
}

// The choices listed in error messages for each enum.
constexpr const char* status_choices =
    "proposed | countering | accepted | rejected | expired";
constexpr const char* action_choices = "propose | counter | accept | reject";
constexpr const char* kind_choices = "started | updated | agreed | rejected | expired";
constexpr const char* severity_choices = "error | warning";
constexpr const char* escrow_choices = "always | never | above_threshold";
constexpr const char* style_choices = "aggressive | balanced | conservative";
constexpr const char* brain_choices = "rule | script | llm";
constexpr const char* side_choices = "from_role | buyer | seller";
constexpr const char* reply_choices = "counter | accept | reject | silent";

} // namespace

// -- enums --------------------------------------------------------------------

#define PARLEY_ENUM_JSON(type, choices)                                                \
  void to_json(json& j, const type& x) {                                               \
    write_enum(j, x);                                                                  \
  }                                                                                    \
  void read(const json& j, const std::string& path, type& x) {                         \
    read_enum(j, path, x, choices);                                                    \
  }

PARLEY_ENUM_JSON(negotiation_status, status_choices)
PARLEY_ENUM_JSON(round_action, action_choices)
PARLEY_ENUM_JSON(negotiation_event_kind, kind_choices)
PARLEY_ENUM_JSON(severity, severity_choices)
PARLEY_ENUM_JSON(escrow_preference, escrow_choices)
PARLEY_ENUM_JSON(negotiation_style, style_choices)
PARLEY_ENUM_JSON(brain_kind, brain_choices)
PARLEY_ENUM_JSON(bargaining_side, side_choices)
PARLEY_ENUM_JSON(reply_action, reply_choices)

#undef PARLEY_ENUM_JSON

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

void to_json(json& j, const proposal& x) {
  j = json{{"amount", x.amount},
           {"currency", x.currency},
           {"escrow", x.escrow},
           {"description", x.description},
           {"terms", x.terms}};
}

void read(const json& j, const std::string& path, proposal& x) {
  object_reader r{j, path};
  r.required("amount", x.amount);
  r.optional("currency", x.currency);
  r.optional("escrow", x.escrow);
  r.optional("description", x.description);
  r.optional("terms", x.terms);
  r.done();
}

void to_json(json& j, const proposal_patch& x) {
  j = json::object();
  if (x.amount)
    j["amount"] = *x.amount;
  if (x.currency)
    j["currency"] = *x.currency;
  if (x.escrow)
    j["escrow"] = *x.escrow;
  if (x.description)
    j["description"] = *x.description;
  if (x.terms)
    j["terms"] = *x.terms;
}

void read(const json& j, const std::string& path, proposal_patch& x) {
  object_reader r{j, path};
  r.optional("amount", x.amount);
  r.optional("currency", x.currency);
  r.optional("escrow", x.escrow);
  r.optional("description", x.description);
  r.optional("terms", x.terms);
  r.done();
}

// -- negotiation records ------------------------------------------------------

void to_json(json& j, const negotiation_round& x) {
  j = json{{"round", x.round},       {"from_agent", x.from_agent},
           {"proposal", x.proposal}, {"action", x.action},
           {"reason", x.reason},     {"timestamp", x.timestamp}};
}

void read(const json& j, const std::string& path, negotiation_round& x) {
  object_reader r{j, path};
  r.required("round", x.round);
  r.required("from_agent", x.from_agent);
  r.required("proposal", x.proposal);
  r.required("action", x.action);
  r.optional("reason", x.reason);
  r.required("timestamp", x.timestamp);
  r.done();
}

void to_json(json& j, const incentive_split& x) {
  j = json{{"agent", x.agent},
           {"broker", x.broker},
           {"validator", x.validator},
           {"pool", x.pool}};
}

void read(const json& j, const std::string& path, incentive_split& x) {
  object_reader r{j, path};
  r.required("agent", x.agent);
  r.required("broker", x.broker);
  r.required("validator", x.validator);
  r.required("pool", x.pool);
  r.done();
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

void to_json(json& j, const negotiation_record& x) {
  j = json{{"id", x.id},
           {"room_id", x.room_id},
           {"intent_id", x.intent_id},
           {"status", x.status},
           {"initiator", x.initiator},
           {"responder", x.responder},
           {"current_proposal", x.current_proposal},
           {"final_proposal", optional_json(x.final_proposal)},
           {"rounds", x.rounds},
           {"max_rounds", x.max_rounds},
           {"round_timeout_ms", x.round_timeout_ms},
           {"total_timeout_ms", x.total_timeout_ms},
           {"convergence_score", x.convergence_score},
           {"incentive_split", x.incentive_split},
           {"created_at", x.created_at},
           {"updated_at", x.updated_at},
           {"expires_at", x.expires_at},
           {"status_reason", x.status_reason}};
}

void read(const json& j, const std::string& path, negotiation_record& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.required("room_id", x.room_id);
  r.optional("intent_id", x.intent_id);
  r.required("status", x.status);
  r.required("initiator", x.initiator);
  r.required("responder", x.responder);
  r.required("current_proposal", x.current_proposal);
  r.optional("final_proposal", x.final_proposal);
  r.required("rounds", x.rounds);
  r.required("max_rounds", x.max_rounds);
  r.required("round_timeout_ms", x.round_timeout_ms);
  r.required("total_timeout_ms", x.total_timeout_ms);
  r.required("convergence_score", x.convergence_score);
  r.optional("incentive_split", x.incentive_split);
  r.required("created_at", x.created_at);
  r.required("updated_at", x.updated_at);
  r.required("expires_at", x.expires_at);
  r.optional("status_reason", x.status_reason);
  r.done();
}

void to_json(json& j, const negotiation_settings& x) {
  j = json{{"max_rounds", x.max_rounds},
           {"round_timeout_ms", x.round_timeout_ms},
           {"total_timeout_ms", x.total_timeout_ms},
           {"incentive_split", x.incentive_split}};
}

void read(const json& j, const std::string& path, negotiation_settings& x) {
  object_reader r{j, path};
  r.optional("max_rounds", x.max_rounds);
  r.optional("round_timeout_ms", x.round_timeout_ms);
  r.optional("total_timeout_ms", x.total_timeout_ms);
  r.optional("incentive_split", x.incentive_split);
  r.done();
  if (auto why = validate(x); !why.empty())
    throw json_error(path, why);
}

// -- agent messages -----------------------------------------------------------

void to_json(json& j, const agent_proposal& x) {
  j = json{{"type", "agent_proposal"},
           {"message_id", x.message_id},
           {"negotiation_id", x.negotiation_id},
           {"from_agent", x.from_agent},
           {"proposal", x.proposal}};
}

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

void read(const json& j, const std::string& path, agent_proposal& x) {
  object_reader r{j, path};
  check_type(r, "agent_proposal");
  r.required("message_id", x.message_id);
  r.required("negotiation_id", x.negotiation_id);
  r.required("from_agent", x.from_agent);
  r.required("proposal", x.proposal);
  r.done();
}

void to_json(json& j, const agent_counter& x) {
  j = json{{"type", "agent_counter"},
           {"message_id", x.message_id},
           {"negotiation_id", x.negotiation_id},
           {"from_agent", x.from_agent},
           {"proposal", x.proposal},
           {"reason", x.reason}};
}

void read(const json& j, const std::string& path, agent_counter& x) {
  object_reader r{j, path};
  check_type(r, "agent_counter");
  r.required("message_id", x.message_id);
  r.required("negotiation_id", x.negotiation_id);
  r.required("from_agent", x.from_agent);
  r.required("proposal", x.proposal);
  r.optional("reason", x.reason);
  r.done();
}

void to_json(json& j, const agent_accept& x) {
  j = json{{"type", "agent_accept"},
           {"message_id", x.message_id},
           {"negotiation_id", x.negotiation_id},
           {"from_agent", x.from_agent}};
}

void read(const json& j, const std::string& path, agent_accept& x) {
  object_reader r{j, path};
  check_type(r, "agent_accept");
  r.required("message_id", x.message_id);
  r.required("negotiation_id", x.negotiation_id);
  r.required("from_agent", x.from_agent);
  r.done();
}

void to_json(json& j, const agent_reject& x) {
  j = json{{"type", "agent_reject"},
           {"message_id", x.message_id},
           {"negotiation_id", x.negotiation_id},
           {"from_agent", x.from_agent},
           {"reason", x.reason}};
}

void read(const json& j, const std::string& path, agent_reject& x) {
  object_reader r{j, path};
  check_type(r, "agent_reject");
  r.required("message_id", x.message_id);
  r.required("negotiation_id", x.negotiation_id);
  r.required("from_agent", x.from_agent);
  r.optional("reason", x.reason);
  r.done();
}

// -- commands -----------------------------------------------------------------

void to_json(json& j, const start_negotiation& x) {
  j = json{{"message_id", x.message_id},
           {"initiator", x.initiator},
           {"responder", x.responder},
           {"proposal", x.proposal},
           {"intent_id", x.intent_id}};
}

void read(const json& j, const std::string& path, start_negotiation& x) {
  object_reader r{j, path};
  r.optional("message_id", x.message_id);
  r.required("initiator", x.initiator);
  r.required("responder", x.responder);
  r.required("proposal", x.proposal);
  r.optional("intent_id", x.intent_id);
  r.done();
}

void to_json(json& j, const negotiation_opened& x) {
  j = json{{"message_id", x.message_id}, {"negotiation_id", x.negotiation_id}};
}

void read(const json& j, const std::string& path, negotiation_opened& x) {
  object_reader r{j, path};
  r.required("message_id", x.message_id);
  r.required("negotiation_id", x.negotiation_id);
  r.done();
}

void to_json(json& j, const negotiation_opening& x) {
  j = json{{"id", x.id},
           {"room_id", x.room_id},
           {"intent_id", x.intent_id},
           {"message_id", x.message_id},
           {"initiator", x.initiator},
           {"responder", x.responder},
           {"proposal", x.proposal},
           {"settings", x.settings}};
}

void read(const json& j, const std::string& path, negotiation_opening& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.required("room_id", x.room_id);
  r.optional("intent_id", x.intent_id);
  r.optional("message_id", x.message_id);
  r.required("initiator", x.initiator);
  r.required("responder", x.responder);
  r.required("proposal", x.proposal);
  r.optional("settings", x.settings);
  r.done();
}

// Actor handles have no JSON form: they are written as whether they are set
// and read back as unset (JSON is for people and HTTP clients, not for
// addressing actors).
void to_json(json& j, const open_negotiation& x) {
  j = json{{"opening", x.opening},
           {"at_us", x.at_us},
           {"initiator", x.initiator},
           {"responder", x.responder},
           {"room", x.room},
           {"timers", x.timers},
           {"events", x.events}};
}

void read(const json& j, const std::string& path, open_negotiation& x) {
  object_reader r{j, path};
  r.required("opening", x.opening);
  r.required("at_us", x.at_us);
  r.raw("initiator");
  r.raw("responder");
  r.raw("room");
  r.raw("timers");
  r.optional("events", x.events);
  r.done();
}

void to_json(json& j, const room_member& x) {
  j = json{{"agent_id", x.agent_id},
           {"agent", static_cast<bool>(x.agent)},
           {"llm", x.llm}};
}

void read(const json& j, const std::string& path, room_member& x) {
  object_reader r{j, path};
  r.required("agent_id", x.agent_id);
  r.raw("agent");
  r.optional("llm", x.llm);
  r.done();
}

void to_json(json& j, const join_room& x) {
  j = json{{"member", x.member}};
}

void read(const json& j, const std::string& path, join_room& x) {
  object_reader r{j, path};
  r.required("member", x.member);
  r.done();
}

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

void to_json(json& j, const event_sink& x) {
  topic_set wanted;
  for (std::size_t i = 0; i < topic_count; ++i)
    if (x.wants(static_cast<topic>(i)))
      wanted = wanted | topic_set::of(static_cast<topic>(i));
  j = json{{"bus", static_cast<bool>(x)}, {"topics", wanted}};
}

void read(const json& j, const std::string& path, event_sink& x) {
  object_reader r{j, path};
  r.raw("bus");
  topic_set topics;
  r.optional("topics", topics);
  r.done();
  x = event_sink{{}, std::make_shared<interest>(topics)};
}

void to_json(json& j, const room_spec& x) {
  j = json{{"id", x.id},
           {"members", x.members},
           {"settings", x.settings},
           {"history_limit", x.history_limit},
           {"seed", x.seed},
           {"events", x.events}};
}

void read(const json& j, const std::string& path, room_spec& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.optional("members", x.members);
  r.optional("settings", x.settings);
  r.optional("history_limit", x.history_limit);
  r.optional("seed", x.seed);
  r.optional("events", x.events);
  r.done();
}

void to_json(json& j, const barrier& x) {
  j = json{{"id", x.id}, {"origin", static_cast<bool>(x.origin)}};
}

void read(const json& j, const std::string& path, barrier& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.raw("origin");
  r.done();
}

void to_json(json& j, const initiate_negotiation& x) {
  j = json{{"room", static_cast<bool>(x.room)},
           {"responder", x.responder},
           {"proposal", x.proposal},
           {"intent_id", x.intent_id},
           {"message_id", x.message_id}};
}

void read(const json& j, const std::string& path, initiate_negotiation& x) {
  object_reader r{j, path};
  r.raw("room");
  r.required("responder", x.responder);
  r.required("proposal", x.proposal);
  r.optional("intent_id", x.intent_id);
  r.optional("message_id", x.message_id);
  r.done();
}

void to_json(json& j, const start_deadline& x) {
  j = json{{"message_id", x.message_id}};
}

void read(const json& j, const std::string& path, start_deadline& x) {
  object_reader r{j, path};
  r.required("message_id", x.message_id);
  r.done();
}

void to_json(json& j, const timer_tick& x) {
  j = json{{"number", x.number}};
}

void read(const json& j, const std::string& path, timer_tick& x) {
  object_reader r{j, path};
  r.required("number", x.number);
  r.done();
}

void to_json(json& j, const arm_timer& x) {
  j = json{{"due_ms", x.due_ms}, {"generation", x.generation}};
}

void read(const json& j, const std::string& path, arm_timer& x) {
  object_reader r{j, path};
  r.required("due_ms", x.due_ms);
  r.required("generation", x.generation);
  r.done();
}

// -- events -------------------------------------------------------------------

void to_json(json& j, const shared_record& x) {
  j = x ? json(*x) : json(nullptr);
}

void read(const json& j, const std::string& path, shared_record& x) {
  if (j.is_null()) {
    x = shared_record{};
    return;
  }
  negotiation_record record;
  read(j, path, record);
  x = shared_record{std::move(record)};
}

void to_json(json& j, const negotiation_event& x) {
  j = json{{"type", name_of(topic_of(x))},
           {"at_us", x.at_us},
           {"negotiation_id", x.negotiation_id},
           {"room_id", x.room_id},
           {"message_id", x.message_id},
           {"round", optional_json(x.round)},
           {"convergence_score", x.convergence_score},
           {"round_trip_us", x.round_trip_us},
           {"negotiation", x.record}};
}

void read(const json& j, const std::string& path, negotiation_event& x) {
  object_reader r{j, path};
  std::string type;
  r.required("type", type);
  auto prefix = std::string{"negotiation."};
  if (type.compare(0, prefix.size(), prefix) != 0 ||
      !from_string(type.substr(prefix.size()), x.kind))
    throw json_error(r.path_of("type"), "expected negotiation.<" +
                                            std::string{kind_choices} + ">, got \"" +
                                            type + "\"");
  r.required("at_us", x.at_us);
  r.required("negotiation_id", x.negotiation_id);
  r.required("room_id", x.room_id);
  r.optional("message_id", x.message_id);
  r.optional("round", x.round);
  r.optional("convergence_score", x.convergence_score);
  r.optional("round_trip_us", x.round_trip_us);
  r.optional("negotiation", x.record);
  r.done();
}

void to_json(json& j, const problem_event& x) {
  j = json{{"type", x.severity},     {"code", x.code},
           {"message", x.message},   {"at_ms", x.at_ms},
           {"room", x.room_id},      {"negotiation_id", x.negotiation_id},
           {"agent_id", x.agent_id}, {"message_id", x.message_id}};
}

void read(const json& j, const std::string& path, problem_event& x) {
  object_reader r{j, path};
  r.required("type", x.severity);
  r.required("code", x.code);
  r.required("message", x.message);
  r.required("at_ms", x.at_ms);
  r.optional("room", x.room_id);
  r.optional("negotiation_id", x.negotiation_id);
  r.optional("agent_id", x.agent_id);
  r.optional("message_id", x.message_id);
  r.done();
}

void to_json(json& j, const run_summary& x) {
  j = json{{"type", "summary"},      {"negotiations", x.negotiations},
           {"accepted", x.accepted}, {"rejected", x.rejected},
           {"expired", x.expired},   {"errors", x.errors},
           {"warnings", x.warnings}};
  // Seed 004's counts appear only in runs that had ballots or auctions.
  if (x.ballots > 0 || x.auctions > 0) {
    j["ballots"] = x.ballots;
    j["ballots_approved"] = x.ballots_approved;
    j["ballots_rejected"] = x.ballots_rejected;
    j["auctions"] = x.auctions;
    j["auctions_awarded"] = x.auctions_awarded;
  }
}

void read(const json& j, const std::string& path, run_summary& x) {
  object_reader r{j, path};
  r.raw("type");
  r.required("negotiations", x.negotiations);
  r.required("accepted", x.accepted);
  r.required("rejected", x.rejected);
  r.required("expired", x.expired);
  r.required("errors", x.errors);
  r.optional("warnings", x.warnings);
  r.optional("ballots", x.ballots);
  r.optional("ballots_approved", x.ballots_approved);
  r.optional("ballots_rejected", x.ballots_rejected);
  r.optional("auctions", x.auctions);
  r.optional("auctions_awarded", x.auctions_awarded);
  r.done();
}

// -- agents -------------------------------------------------------------------

void to_json(json& j, const agent_preferences& x) {
  j = json{{"max_auto_approve_amount", x.max_auto_approve_amount},
           {"preferred_currency", x.preferred_currency},
           {"escrow_preference", x.escrow_preference},
           {"escrow_threshold", x.escrow_threshold},
           {"negotiation_style", x.style}};
}

void read(const json& j, const std::string& path, agent_preferences& x) {
  object_reader r{j, path};
  r.optional("max_auto_approve_amount", x.max_auto_approve_amount);
  r.optional("preferred_currency", x.preferred_currency);
  r.optional("escrow_preference", x.escrow_preference);
  r.optional("escrow_threshold", x.escrow_threshold);
  r.optional("negotiation_style", x.style);
  r.done();
  if (x.max_auto_approve_amount < 0)
    throw json_error(r.path_of("max_auto_approve_amount"),
                     "must not be negative, got " +
                         std::to_string(x.max_auto_approve_amount));
  if (x.escrow_threshold < 0)
    throw json_error(r.path_of("escrow_threshold"),
                     "must not be negative, got " + std::to_string(x.escrow_threshold));
  if (!is_currency_code(x.preferred_currency))
    throw json_error(r.path_of("preferred_currency"),
                     "expected an ISO 4217 code such as GBP, got \"" +
                         x.preferred_currency + "\"");
}

void to_json(json& j, const agent_profile& x) {
  j = json{
      {"display_name", x.display_name}, {"role", x.role},
      {"preferences", x.preferences},   {"custom_instructions", x.custom_instructions},
      {"capabilities", x.capabilities}, {"load", x.load}};
}

void read(const json& j, const std::string& path, agent_profile& x) {
  object_reader r{j, path};
  r.optional("display_name", x.display_name);
  r.optional("role", x.role);
  r.optional("preferences", x.preferences);
  r.optional("custom_instructions", x.custom_instructions);
  auto in_unit = [](double v) {
    return std::isfinite(v) && v >= 0.0 && v <= 1.0;
  };
  if (r.has("capabilities")) {
    const auto& caps = r.raw("capabilities");
    auto caps_path = r.path_of("capabilities");
    if (!caps.is_object())
      throw json_error(caps_path, "expected an object, got " + json_kind(caps));
    x.capabilities.clear();
    for (auto i = caps.begin(); i != caps.end(); ++i) {
      double value = 0;
      read(i.value(), path_join(caps_path, i.key()), value);
      if (!in_unit(value))
        throw json_error(path_join(caps_path, i.key()), "must be within 0..1");
      x.capabilities.emplace(i.key(), value);
    }
  }
  r.optional("load", x.load);
  r.done();
  if (!in_unit(x.load))
    throw json_error(r.path_of("load"), "must be within 0..1");
}

void to_json(json& j, const script_reply& x) {
  j = json{{"action", x.action}, {"reason", x.reason}, {"delay_ms", x.delay_ms}};
  if (x.proposal)
    j["proposal"] = *x.proposal;
}

void read(const json& j, const std::string& path, script_reply& x) {
  object_reader r{j, path};
  r.required("action", x.action);
  r.optional("proposal", x.proposal);
  r.optional("reason", x.reason);
  r.optional("delay_ms", x.delay_ms);
  r.done();
  if (auto why = check_range(x.delay_ms, 0, max_delay_ms); !why.empty())
    throw json_error(r.path_of("delay_ms"), why);
  if (x.action == reply_action::counter && (!x.proposal || !x.proposal->amount))
    throw json_error(r.path_of("proposal"),
                     "a counter needs a proposal with at least an amount");
  if (x.proposal && x.proposal->amount && *x.proposal->amount <= 0)
    throw json_error(r.path_of("proposal") + ".amount",
                     "amount must be a positive integer in minor units, got " +
                         std::to_string(*x.proposal->amount));
}

void to_json(json& j, const brain_spec& x) {
  j = json{{"kind", x.kind}, {"side", x.side}, {"script", x.script}};
  if (x.kind == brain_kind::llm) {
    j["provider"] = x.provider;
    j["model"] = x.model;
    j["endpoint"] = x.endpoint;
  }
}

void read(const json& j, const std::string& path, brain_spec& x) {
  object_reader r{j, path};
  r.required("kind", x.kind);
  r.optional("side", x.side);
  r.optional("script", x.script);
  r.optional("provider", x.provider);
  r.optional("model", x.model);
  r.optional("endpoint", x.endpoint);
  r.done();
}

void to_json(json& j, const agent_spec& x) {
  j = json{{"id", x.id}, {"profile", x.profile}, {"brain", x.brain}};
}

void read(const json& j, const std::string& path, agent_spec& x) {
  object_reader r{j, path};
  r.required("id", x.id);
  r.optional("profile", x.profile);
  r.optional("brain", x.brain);
  r.done();
}

// -- internal messages ----------------------------------------------------------

void to_json(json& j, const timer_due& x) {
  j = json{{"generation", x.generation}};
}

void read(const json& j, const std::string& path, timer_due& x) {
  object_reader r{j, path};
  r.required("generation", x.generation);
  r.done();
}

void to_json(json& j, const decision& x) {
  j = json{{"action", x.action},
           {"proposal", x.proposal},
           {"reason", x.reason},
           {"delay_ms", x.delay_ms}};
}

void read(const json& j, const std::string& path, decision& x) {
  object_reader r{j, path};
  r.required("action", x.action);
  r.optional("proposal", x.proposal);
  r.optional("reason", x.reason);
  r.optional("delay_ms", x.delay_ms);
  r.done();
}

void to_json(json& j, const deferred_reply& x) {
  j = json{{"negotiation_id", x.negotiation_id}, {"decision", x.decision}};
}

void read(const json& j, const std::string& path, deferred_reply& x) {
  object_reader r{j, path};
  r.required("negotiation_id", x.negotiation_id);
  r.required("decision", x.decision);
  r.done();
}

} // namespace parley::messages
