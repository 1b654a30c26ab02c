#include "messages/type_ids.hpp"

#include "caf/actor_system_config.hpp"
#include "caf/error.hpp"
#include "caf/make_message.hpp"

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/atoms.hpp"
#include "messages/bridge.hpp"
#include "messages/channel.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_messages.hpp"
#include "messages/cluster_event.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/decision.hpp"
#include "messages/error_code.hpp"
#include "messages/event_sink.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/negotiation_record.hpp"
#include "messages/negotiation_settings.hpp"
#include "messages/proposal.hpp"
#include "messages/store.hpp"

namespace parley::messages {

namespace {

constexpr caf::atom_value error_category = caf::atom("parley");

std::string render_error(std::uint8_t code, caf::atom_value, const caf::message& ctx) {
  auto x = static_cast<error_code>(code);
  auto result = to_code(x) + " " + to_string(x);
  if (ctx.match_elements<std::string>() ||
      ctx.match_elements<std::string, std::string>())
    result += ": " + ctx.get_as<std::string>(0);
  return result;
}

} // namespace

void register_types(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::parley>();
  cfg.add_error_category(error_category, render_error);
}

caf::error make_error(error_code code, std::string message) {
  return caf::error(static_cast<std::uint8_t>(code), error_category,
                    caf::make_message(std::move(message)));
}

caf::error make_error(error_code code, std::string message, std::string details_json) {
  return caf::error(static_cast<std::uint8_t>(code), error_category,
                    caf::make_message(std::move(message), std::move(details_json)));
}

bool is_parley_error(const caf::error& x) {
  return x.category() == error_category;
}

} // namespace parley::messages
