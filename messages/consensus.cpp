#include "messages/consensus.hpp"

#include "messages/enum_names.hpp"

namespace parley::messages {

namespace {

constexpr const char* strategy_names[] = {"majority", "unanimous", "weighted", "veto"};
constexpr const char* ballot_status_names[] = {"approved", "rejected"};
constexpr const char* ballot_kind_names[] = {"propose", "vote", "result"};
constexpr const char* auction_status_names[] = {"awarded", "no_bids"};
constexpr const char* auction_kind_names[] = {"bid", "result"};

} // namespace

#define PARLEY_ENUM_NAMES(type, names)                                                 \
  std::string to_string(type x) {                                                      \
    return enum_name(names, x);                                                        \
  }                                                                                    \
  bool from_string(const std::string& text, type& x) {                                 \
    return enum_from_name(names, text, x);                                             \
  }

PARLEY_ENUM_NAMES(ballot_strategy, strategy_names)
PARLEY_ENUM_NAMES(ballot_status, ballot_status_names)
PARLEY_ENUM_NAMES(ballot_event_kind, ballot_kind_names)
PARLEY_ENUM_NAMES(auction_status, auction_status_names)
PARLEY_ENUM_NAMES(auction_event_kind, auction_kind_names)

#undef PARLEY_ENUM_NAMES

std::string topic_of(const ballot_event& x) {
  return "negotiation." + to_string(x.kind);
}

std::string topic_of(const auction_event& x) {
  return "auction." + to_string(x.kind);
}

} // namespace parley::messages
