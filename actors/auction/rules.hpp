#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "messages/consensus.hpp"
#include "actors/common/refusal.hpp"
#include "messages/error_code.hpp"

namespace parley::actors::auction {

/// Tie-break priority of a role, lower wins: architect 0, strategist 1,
/// builder 2, guardian 3, any other role 4.
int role_priority(const std::string& role);

/// Rounds a score component to six decimals (scores are compared rounded, so
/// that equal sums of different terms tie).
double round6(double x);

/// The composite score of `x`
/// (docs/protocols/ballots-and-auctions.md, "Scoring and the winner"), given the
/// shortest estimated duration among all bids: 0.4 capability + 0.3 availability + 0.3
/// speed, with availability = 1 − load and speed = shortest / this bid's duration.
messages::bid_score score(const messages::bid& x, const std::string& role,
                          std::int64_t shortest_duration_ms);

/// Ranks bids (in arrival order) and picks the winner: the highest score,
/// then the role priority, then the earliest bid. `roles` has one role per bid.
messages::auction_outcome rank(const std::vector<messages::bid>& bids,
                               const std::vector<std::string>& roles);

/// Returns an empty string if `x` is a valid bid (capability and load in
/// 0..1, duration within 1..messages::max_delay_ms), otherwise why not.
std::string validate(const messages::bid& x);

/// Returns an empty string if `x` can open (window and base duration within
/// 1..messages::max_delay_ms), otherwise why not.
std::string validate(const messages::auction_spec& x);

/// A refused bid: published as a problem, changes nothing.
using actors::refusal;

/// What one input asks the shell to do: publish the refusal, publish the
/// accepted bid, publish the result and quit.
struct effects {
  std::optional<refusal> refused;
  std::optional<messages::bid> accepted;
  std::optional<messages::auction_outcome> resolved;
};

/// One auction as a plain state machine. Bids are refused with a coded error
/// and change nothing when the bidder is not invited (E022), bids a second
/// time (E023), bids after the auction resolved (E024) or bids out of range
/// (E026). The auction resolves when its window closes, or as soon as every
/// invited agent has bid; with no bids it ends `no_bids`.
class rules {
public:
  /// `x` must be valid (see validate).
  explicit rules(messages::auction_spec x);

  void on_bid(const messages::bid& x, effects& out);
  void on_window_closed(effects& out);

  bool resolved() const noexcept { return resolved_; }
  const messages::auction_spec& spec() const noexcept { return spec_; }

private:
  void resolve(effects& out);

  messages::auction_spec spec_;
  std::unordered_map<std::string, std::string> roles_;
  std::vector<messages::bid> bids_;
  std::vector<std::string> bid_roles_;
  bool resolved_ = false;
};

} // namespace parley::actors::auction
