#include "messages/topic.hpp"

#include "messages/channel_event.hpp"

namespace parley::messages {

namespace {

constexpr const char* names[topic_count] = {"negotiation.started",
                                            "negotiation.updated",
                                            "negotiation.agreed",
                                            "negotiation.rejected",
                                            "negotiation.expired",
                                            "error",
                                            "warning",
                                            "negotiation.propose",
                                            "negotiation.vote",
                                            "negotiation.result",
                                            "auction.bid",
                                            "auction.result",
                                            "agent.message",
                                            "agent.tool_call",
                                            "agent.decision",
                                            "towow.demand.understood",
                                            "towow.filter.completed",
                                            "towow.channel.created",
                                            "towow.demand.broadcast",
                                            "towow.offer.submitted",
                                            "towow.proposal.distributed",
                                            "towow.proposal.feedback",
                                            "towow.feedback.evaluated",
                                            "towow.negotiation.round_started",
                                            "towow.proposal.finalized",
                                            "towow.negotiation.force_finalized",
                                            "towow.negotiation.failed"};

// The channel topics follow channel_event_kind's order.
static_assert(static_cast<int>(topic::channel_failed) -
                      static_cast<int>(topic::demand_understood) ==
                  static_cast<int>(channel_event_kind::failed),
              "one channel topic per channel_event_kind, in its order");

} // namespace

const char* name_of(topic x) {
  auto i = static_cast<std::size_t>(x);
  return i < topic_count ? names[i] : "unknown";
}

topic topic_of(channel_event_kind x) {
  return static_cast<topic>(static_cast<unsigned>(topic::demand_understood) +
                            static_cast<unsigned>(x));
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
