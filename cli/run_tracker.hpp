#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <unordered_map>
#include <unordered_set>

#include "messages/channel_event.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"

namespace parley::cli {

/// The one place that knows what a run still waits for: starts sent and not
/// answered, negotiations started and not ended, ballots and auctions not
/// resolved, demands not answered, channels not ended, barriers not back. It learns
/// only from what the run sends and the events it sees, and it cannot be raced by their
/// order: an end that arrives before its start's event closes the negotiation all the
/// same. Pure: no actors, no clock.
class run_tracker {
public:
  /// A start request `message_id` went to `room` on behalf of `initiator`.
  void start_sent(const std::string& room, const std::string& initiator,
                  const std::string& message_id);

  /// A barrier went through `room` (empty: not through a room).
  void barrier_sent(std::uint64_t id, const std::string& room);

  /// A demand went to the coordinator; its receipt or refusal is pending.
  void demand_sent() noexcept { ++demands_; }

  /// The coordinator answered a demand (a receipt or a refusal).
  void demand_answered() noexcept { --demands_; }

  void ballot_opened(const std::string& id);
  void auction_opened(const std::string& id);

  /// The run told `voter` to vote on ballot `id` (`bidder` to bid in auction
  /// `id`): the vote's event or its refusal is pending (every vote and bid
  /// has one, a late one too).
  void vote_sent(const std::string& id, const std::string& voter);
  void bid_sent(const std::string& id, const std::string& bidder);

  /// What an event settles. Returns how many pending starts it answered.
  std::size_t on(const messages::negotiation_event& x);
  std::size_t on(const messages::problem_event& x);
  void on(const messages::ballot_event& x);
  void on(const messages::auction_event& x);
  /// A channel is open from its channel.created to its proposal.finalized,
  /// negotiation.force_finalized or negotiation.failed.
  void on(const messages::channel_event& x);

  /// A barrier came back.
  void barrier_back(std::uint64_t id);

  /// Nothing the run sent is unanswered and nothing it opened is open.
  bool idle() const noexcept;

  std::size_t pending_starts() const noexcept { return starts_.size(); }
  std::size_t open_negotiations() const noexcept { return open_.size(); }
  std::size_t pending_barriers() const noexcept { return barriers_.size(); }
  std::size_t open_channels() const noexcept { return channels_.size(); }
  std::size_t pending_demands() const noexcept { return demands_; }

private:
  /// Forgets everything that went through `room` (its node is gone).
  std::size_t lose_room(const std::string& room);

  /// Closes negotiation `id`, remembering an end that came before its start.
  void close(const std::string& id);

  struct start {
    std::string room;
    std::string initiator;
  };

  /// Takes the pending start `message_id` if it went to `room` (and, when
  /// given, on behalf of `initiator`); returns whether there was one.
  std::size_t answer(const std::string& message_id, const std::string& room,
                     const std::string* initiator);

  /// Pending starts by message id.
  std::unordered_map<std::string, start> starts_;
  /// Open negotiations -> their rooms.
  std::unordered_map<std::string, std::string> open_;
  /// Negotiations whose end came before their start's event.
  std::unordered_set<std::string> ended_early_;
  std::unordered_map<std::uint64_t, std::string> barriers_;
  /// Ballots and auctions by id, with how many of that id are open.
  std::unordered_map<std::string, int> ballots_;
  std::unordered_map<std::string, int> auctions_;
  /// Votes and bids the run sent without their event yet, by (ballot or
  /// auction id, agent id), with how many.
  std::map<std::pair<std::string, std::string>, int> votes_;
  std::map<std::pair<std::string, std::string>, int> bids_;
  /// Channels by id, with how many of that id are open.
  std::unordered_map<std::string, int> channels_;
  /// Demands sent and not answered.
  std::size_t demands_ = 0;
};

} // namespace parley::cli
