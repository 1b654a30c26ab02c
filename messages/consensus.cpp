#include "messages/consensus.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* ballot_strategy_names[] = {"majority", "unanimous", "weighted",
                                                 "veto"};
constexpr const char* ballot_status_names[] = {"approved", "rejected"};
constexpr const char* ballot_event_kind_names[] = {"propose", "vote", "result"};
constexpr const char* auction_status_names[] = {"awarded", "no_bids"};
constexpr const char* auction_event_kind_names[] = {"bid", "result"};

} // namespace

PARLEY_ENUM_NAMES(ballot_strategy, ballot_strategy_names)
PARLEY_ENUM_NAMES(ballot_status, ballot_status_names)
PARLEY_ENUM_NAMES(ballot_event_kind, ballot_event_kind_names)
PARLEY_ENUM_NAMES(auction_status, auction_status_names)
PARLEY_ENUM_NAMES(auction_event_kind, auction_event_kind_names)

topic topic_of(const ballot_event& x) {
  switch (x.kind) {
  case ballot_event_kind::propose:
    return topic::ballot_proposed;
  case ballot_event_kind::vote:
    return topic::ballot_vote;
  case ballot_event_kind::result:
    break;
  }
  return topic::ballot_result;
}

topic topic_of(const auction_event& x) {
  return x.kind == auction_event_kind::bid ? topic::auction_bid : topic::auction_result;
}

} // namespace parley::messages
