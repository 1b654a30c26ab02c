#pragma once

#include <string>

#include "messages/error_code.hpp"

namespace parley::actors {

/// An input a pure rule set refuses: the coded error its shell publishes;
/// nothing changed.
struct refusal {
  messages::error_code code = messages::error_code::none;
  std::string message;
};

} // namespace parley::actors
