#include "messages/confidence.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* confidence_level_names[] = {"high", "medium", "low"};

} // namespace

PARLEY_ENUM_NAMES(confidence_level, confidence_level_names)

} // namespace parley::messages
