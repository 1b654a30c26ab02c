#include "service/channel_bodies.hpp"

#include "actors/coordinator/rules.hpp"
#include "messages/input_limits.hpp"
#include "messages/json.hpp"
#include "service/bodies.hpp"

namespace parley::service {

using messages::json_error;

messages::submit_demand read_demand(const nlohmann::json& j) {
  messages::submit_demand x;
  messages::object_reader r{j, {}};
  r.required("raw_input", x.raw_input);
  r.optional("user_id", x.user_id);
  r.done();
  if (auto refused = actors::coordinator::validate_demand(x.raw_input))
    throw json_error("raw_input", refused->message);
  messages::check_id_length(x.user_id, "user_id");
  return x;
}

namespace {

/// Reads `j` as a `T` and checks it as the channel will.
template <class T> T read_answer(const nlohmann::json& j) {
  T x;
  messages::read(j, {}, x);
  check_id(x.message_id, "message_id");
  check_id(x.agent_id, "agent_id");
  if (auto why = validate(x); !why.empty())
    throw json_error({}, why);
  return x;
}

} // namespace

channel_message read_channel_message(nlohmann::json j, const std::string& channel_id) {
  auto type = j.find("type");
  if (type == j.end())
    throw json_error("type", "required: offer_response or proposal_feedback");
  if (!type->is_string() || (*type != "offer_response" && *type != "proposal_feedback"))
    throw json_error("type", "expected offer_response or proposal_feedback, got " +
                                 type->dump());
  channel_message x;
  x.is_offer = *type == "offer_response";
  j.erase(type);
  auto given = j.find("channel_id");
  if (given == j.end())
    j["channel_id"] = channel_id;
  else if (*given != channel_id)
    throw json_error("channel_id", "must be the path's channel id, " + channel_id);
  if (x.is_offer)
    x.offer = read_answer<messages::offer_response>(j);
  else
    x.feedback = read_answer<messages::proposal_feedback>(j);
  return x;
}

} // namespace parley::service
