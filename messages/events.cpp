#include "messages/events.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* kind_names[] = {"started", "updated", "agreed", "rejected",
                                      "expired"};
constexpr const char* severity_names[] = {"error", "warning"};

} // namespace

std::string to_string(negotiation_event_kind x) {
  return enum_name(kind_names, x);
}

bool from_string(const std::string& text, negotiation_event_kind& x) {
  return enum_from_name(kind_names, text, x);
}

std::string to_string(severity x) {
  return enum_name(severity_names, x);
}

bool from_string(const std::string& text, severity& x) {
  return enum_from_name(severity_names, text, x);
}

std::string topic_of(const negotiation_event& x) {
  return "negotiation." + to_string(x.kind);
}

std::string topic_of(const problem_event& x) {
  return to_string(x.severity);
}

} // namespace parley::messages
