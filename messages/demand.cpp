#include "messages/demand.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* source_names[] = {"matched", "relaxed", "fallback"};

} // namespace

PARLEY_ENUM_NAMES(selection_source, source_names)

} // namespace parley::messages
