#include "messages/channel_event.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* channel_event_kind_names[] = {"demand.understood",
                                                    "filter.completed",
                                                    "channel.created",
                                                    "demand.broadcast",
                                                    "offer.submitted",
                                                    "proposal.distributed",
                                                    "proposal.feedback",
                                                    "feedback.evaluated",
                                                    "negotiation.round_started",
                                                    "proposal.finalized",
                                                    "negotiation.force_finalized",
                                                    "negotiation.failed"};
constexpr const char* channel_decision_names[] = {"finalize", "renegotiate",
                                                  "force_finalize", "fail"};

} // namespace

PARLEY_ENUM_NAMES(channel_event_kind, channel_event_kind_names)
PARLEY_ENUM_NAMES(channel_decision, channel_decision_names)

topic topic_of(const channel_event& x) {
  return topic_of(x.kind);
}

} // namespace parley::messages
