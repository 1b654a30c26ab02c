#include "messages/topic.hpp"

namespace parley::messages {

namespace {

constexpr const char* names[topic_count] = {
    "negotiation.started", "negotiation.updated", "negotiation.agreed",
    "negotiation.rejected", "negotiation.expired", "error",
    "warning",             "negotiation.propose", "negotiation.vote",
    "negotiation.result",  "auction.bid",         "auction.result",
    "agent.message",       "agent.tool_call",     "agent.decision"};

} // namespace

const char* name_of(topic x) {
  auto i = static_cast<std::size_t>(x);
  return i < topic_count ? names[i] : "unknown";
}

topic_set topic_set::matching(const std::string& pattern) {
  if (pattern == "*")
    return all();
  auto prefix = !pattern.empty() && pattern.back() == '*';
  auto stem = prefix ? pattern.substr(0, pattern.size() - 1) : pattern;
  topic_set result;
  for (std::size_t i = 0; i < topic_count; ++i) {
    std::string name = names[i];
    if (prefix ? name.compare(0, stem.size(), stem) == 0 : name == stem)
      result = result | of(static_cast<topic>(i));
  }
  return result;
}

} // namespace parley::messages
