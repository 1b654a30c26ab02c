#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "messages/negotiation_record.hpp"

namespace parley::actors::store {

// JSON text for the columns the store writes, appended straight to a string:
// the store renders every event it hears, and building a JSON document per
// round (and parsing each proposal's terms back into one) would cost more
// than the database itself. The text is what nlohmann::json would read back
// into the same values (row.cpp reads it so).

/// Appends `s` as a JSON string, quoted and escaped.
void append_json_string(std::string& out, std::string_view s);

/// Appends `x` as the shortest text that reads back as the same double.
void append_json_number(std::string& out, double x);

/// {"amount":…,"currency":…} and, when not at their defaults, "escrow",
/// "description" and "terms".
void append_proposal(std::string& out, const messages::proposal& x);

/// {"agent":…,"broker":…,"validator":…,"pool":…}
void append_split(std::string& out, const messages::incentive_split& x);

/// A stored round (docs/protocols/record-and-schema.md, "The negotiations table"),
/// {"round","proposal","timestamp","from"}, plus "action", "reason" (when set) and
/// "message_id" (when set).
void append_round(std::string& out, const messages::negotiation_round& x);

/// The same, as a new string.
std::string proposal_text(const messages::proposal& x);
std::string round_text(const messages::negotiation_round& x);

} // namespace parley::actors::store
