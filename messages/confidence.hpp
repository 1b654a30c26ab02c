#pragma once

#include <cstdint>
#include <string>

namespace parley::messages {

/// Seed 002's three-step confidence: of the coordinator in its reading of a
/// demand (§3.3), and of a channel in its proposal (§4.1.3).
enum class confidence_level : std::uint8_t { high, medium, low };

std::string to_string(confidence_level x);
bool from_string(const std::string& text, confidence_level& x);

} // namespace parley::messages
