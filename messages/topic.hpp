#pragma once

#include <cstdint>
#include <string>

#include "caf/meta/type_name.hpp"

namespace parley::messages {

enum class channel_event_kind : std::uint8_t;

/// Every topic an event can have on the bus.
enum class topic : std::uint8_t {
  negotiation_started,
  negotiation_updated,
  negotiation_agreed,
  negotiation_rejected,
  negotiation_expired,
  error,
  warning,
  /// The ballot topics keep the original specification's names:
  /// "negotiation.propose", "negotiation.vote", "negotiation.result"
  /// (docs/protocols/ballots-and-auctions.md, "Events").
  ballot_proposed,
  ballot_vote,
  ballot_result,
  auction_bid,
  auction_result,
  agent_message,
  agent_tool_call,
  agent_decision,
  /// The channel events (messages/channel_event.hpp), one topic per channel_event_kind
  /// in its order, named as docs/protocols/channels.md, "Events" names them: "towow."
  /// and the kind's name, e.g. "towow.proposal.finalized".
  demand_understood,
  filter_completed,
  channel_created,
  demand_broadcast,
  offer_submitted,
  proposal_distributed,
  proposal_feedback,
  feedback_evaluated,
  round_started,
  proposal_finalized,
  force_finalized,
  channel_failed,
};

/// How many topics there are.
constexpr std::size_t topic_count = 27;

/// The topic's name on the bus, e.g. "negotiation.agreed", "error" or
/// "towow.offer.submitted".
const char* name_of(topic x);

/// The topic of a channel event of kind `x`.
topic topic_of(channel_event_kind x);

/// A set of topics: what a subscriber wants, what a producer may publish.
class topic_set {
public:
  constexpr topic_set() = default;

  /// The set holding just `x`.
  static constexpr topic_set of(topic x) {
    return topic_set{std::uint32_t{1} << static_cast<unsigned>(x)};
  }

  static constexpr topic_set all() {
    return topic_set{(std::uint32_t{1} << topic_count) - 1};
  }

  /// The topics a subscription pattern names: a topic ("negotiation.agreed",
  /// "towow.proposal.finalized"), a prefix ending in `*` ("negotiation.*",
  /// "agent.*", "towow.*") or "*" for all. A
  /// pattern that names no topic gives the empty set.
  static topic_set matching(const std::string& pattern);

  constexpr bool contains(topic x) const {
    return (bits_ & of(x).bits_) != 0;
  }

  constexpr bool empty() const { return bits_ == 0; }

  constexpr topic_set operator|(topic_set other) const {
    return topic_set{bits_ | other.bits_};
  }

  constexpr std::uint32_t bits() const { return bits_; }

  static constexpr topic_set from_bits(std::uint32_t bits) {
    return topic_set{bits & all().bits_};
  }

  friend constexpr bool operator==(topic_set x, topic_set y) {
    return x.bits_ == y.bits_;
  }

  template <class Inspector>
  friend typename Inspector::result_type inspect(Inspector& f, topic_set& x) {
    return f(caf::meta::type_name("topic_set"), x.bits_);
  }

private:
  explicit constexpr topic_set(std::uint32_t bits) : bits_(bits) {}

  std::uint32_t bits_ = 0;
};

/// The bilateral lifecycle topics: started, updated and the three terminal
/// ones (docs/protocols/bilateral.md, "Events").
constexpr topic_set lifecycle_topics = topic_set::of(topic::negotiation_started) |
                                       topic_set::of(topic::negotiation_updated) |
                                       topic_set::of(topic::negotiation_agreed) |
                                       topic_set::of(topic::negotiation_rejected) |
                                       topic_set::of(topic::negotiation_expired);

/// The topics that end a negotiation.
constexpr topic_set terminal_topics = topic_set::of(topic::negotiation_agreed) |
                                      topic_set::of(topic::negotiation_rejected) |
                                      topic_set::of(topic::negotiation_expired);

/// The channel events (docs/protocols/channels.md): what "towow.*" names.
constexpr topic_set channel_topics = topic_set::from_bits(
    ~((std::uint32_t{1} << static_cast<unsigned>(topic::demand_understood)) - 1));

/// Refusals and dropped input.
constexpr topic_set problem_topics =
    topic_set::of(topic::error) | topic_set::of(topic::warning);

} // namespace parley::messages
