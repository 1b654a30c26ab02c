#pragma once

#include <string>
#include <string_view>

namespace parley::actors::store {

/// Whether `text` is a UUID in its canonical text form (any version).
bool is_uuid(std::string_view text);

/// Whether `text` is a UUID in its canonical text form with lower-case hex
/// digits, as PostgreSQL prints one: what the store keeps as a negotiation id.
bool is_lower_uuid(std::string_view text);

/// A UUID (version 8, RFC 9562's custom layout) that stands for `text`, a
/// reference that is not a UUID (a scenario's intent_id such as
/// "intent-logo"): the same text always gives the same UUID. The
/// intent_id column holds UUIDs only; the store keeps the text beside it
/// (docs/protocols/record-and-schema.md, "Intent ids").
std::string uuid_for_text(const std::string& text);

} // namespace parley::actors::store
