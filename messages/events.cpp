#include "messages/events.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* negotiation_event_kind_names[] = {"started", "updated", "agreed",
                                                        "rejected", "expired"};
constexpr const char* severity_names[] = {"error", "warning"};

} // namespace

std::string to_string(negotiation_event_kind x) {
  return enum_name(negotiation_event_kind_names, x);
}

bool from_string(const std::string& text, negotiation_event_kind& x) {
  return enum_from_name(negotiation_event_kind_names, text, x);
}

std::string to_string(severity x) {
  return enum_name(severity_names, x);
}

bool from_string(const std::string& text, severity& x) {
  return enum_from_name(severity_names, text, x);
}

topic topic_of(const negotiation_event& x) {
  switch (x.kind) {
  case negotiation_event_kind::started:
    return topic::negotiation_started;
  case negotiation_event_kind::updated:
    return topic::negotiation_updated;
  case negotiation_event_kind::agreed:
    return topic::negotiation_agreed;
  case negotiation_event_kind::rejected:
    return topic::negotiation_rejected;
  case negotiation_event_kind::expired:
    break;
  }
  return topic::negotiation_expired;
}

topic topic_of(const problem_event& x) {
  return x.severity == severity::error ? topic::error : topic::warning;
}

bool is_terminal(const negotiation_event& x) {
  return x.kind == negotiation_event_kind::agreed ||
         x.kind == negotiation_event_kind::rejected ||
         x.kind == negotiation_event_kind::expired;
}

void apply(negotiation_record& record, const negotiation_event& x) {
  if (x.record) {
    record = *x.record;
    return;
  }
  if (x.kind == negotiation_event_kind::updated && x.round)
    append_counter(record, *x.round, x.convergence_score);
}

} // namespace parley::messages
