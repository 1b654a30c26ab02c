#pragma once

#include <optional>
#include <string>

#include "actors/llm/prompt.hpp"

namespace parley::actors::llm {

/// A room's trigger detector: finds, in one transcript line, an amount with a
/// currency ("£500", "$12.50", "€3", "1,200 GBP", "300 pounds"; type
/// "amount", confidence 0.7) or an agreement phrase ("deal", "agreed",
/// "sounds good", "let's do it", "works for me"; type "agreement",
/// confidence 0.8), whichever comes first in the text; case-insensitive.
std::optional<trigger> detect_trigger(const std::string& text);

} // namespace parley::actors::llm
