#include "messages/demand.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* selection_source_names[] = {"matched", "relaxed", "fallback"};

} // namespace

PARLEY_ENUM_NAMES(selection_source, selection_source_names)

} // namespace parley::messages
