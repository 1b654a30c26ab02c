#pragma once

#include <cstdint>
#include <string>

namespace parley::messages {

/// The channel protocol's three-step confidence: of the coordinator in its reading of a
/// demand (docs/protocols/channels.md, "Understanding"), and of a channel in its
/// proposal (docs/protocols/channels.md, "Aggregation").
enum class confidence_level : std::uint8_t { high, medium, low };

std::string to_string(confidence_level x);
bool from_string(const std::string& text, confidence_level& x);

} // namespace parley::messages
