#include "cli/run_tracker.hpp"

namespace parley::cli {

namespace {

/// Removes one of `id` from a count of open (or pending) ones.
template <class Map> void settle(Map& xs, const typename Map::key_type& id) {
  auto i = xs.find(id);
  if (i != xs.end() && --i->second == 0)
    xs.erase(i);
}

const std::string& room_of(const std::string& room) {
  return room;
}

template <class Start> auto room_of(const Start& x) -> decltype((x.room)) {
  return x.room;
}

template <class Map> std::size_t erase_room(Map& xs, const std::string& room) {
  std::size_t n = 0;
  for (auto i = xs.begin(); i != xs.end();) {
    if (room_of(i->second) == room) {
      i = xs.erase(i);
      ++n;
    } else {
      ++i;
    }
  }
  return n;
}

} // namespace

void run_tracker::start_sent(const std::string& room, const std::string& initiator,
                             const std::string& message_id) {
  starts_.emplace(message_id, start{room, initiator});
}

std::size_t run_tracker::answer(const std::string& message_id, const std::string& room,
                                const std::string* initiator) {
  auto i = starts_.find(message_id);
  if (i == starts_.end() || i->second.room != room ||
      (initiator != nullptr && i->second.initiator != *initiator))
    return 0;
  starts_.erase(i);
  return 1;
}

void run_tracker::barrier_sent(std::uint64_t id, const std::string& room) {
  barriers_.emplace(id, room);
}

void run_tracker::ballot_opened(const std::string& id) {
  ++ballots_[id];
}

void run_tracker::auction_opened(const std::string& id) {
  ++auctions_[id];
}

void run_tracker::vote_sent(const std::string& id, const std::string& voter) {
  ++votes_[{id, voter}];
}

void run_tracker::bid_sent(const std::string& id, const std::string& bidder) {
  ++bids_[{id, bidder}];
}

void run_tracker::close(const std::string& id) {
  if (open_.erase(id) == 0)
    ended_early_.insert(id);
}

std::size_t run_tracker::on(const messages::negotiation_event& x) {
  if (x.kind == messages::negotiation_event_kind::started) {
    auto answered = answer(x.message_id, x.room_id, nullptr);
    // Agents open negotiations too (an LLM agent after a trigger).
    if (ended_early_.erase(x.negotiation_id) == 0)
      open_.emplace(x.negotiation_id, x.room_id);
    return answered;
  }
  if (is_terminal(x))
    close(x.negotiation_id);
  return 0;
}

std::size_t run_tracker::on(const messages::problem_event& x) {
  if (x.code == messages::error_code::node_unavailable) {
    // A negotiation aborted with its room, or a whole node lost.
    if (!x.negotiation_id.empty()) {
      close(x.negotiation_id);
      return 0;
    }
    return lose_room(x.room_id);
  }
  // A ballot's or an auction's refusal to open names it as negotiation_id;
  // so does its refusal of a vote or bid, and the agent as agent_id.
  if (x.code == messages::error_code::invalid_ballot) {
    settle(ballots_, x.negotiation_id);
    settle(auctions_, x.negotiation_id);
  }
  if (!x.agent_id.empty()) {
    settle(votes_, {x.negotiation_id, x.agent_id});
    settle(bids_, {x.negotiation_id, x.agent_id});
  }
  // A room's refusal names the start and its initiator.
  return answer(x.message_id, x.room_id, &x.agent_id);
}

void run_tracker::on(const messages::ballot_event& x) {
  if (x.kind == messages::ballot_event_kind::result)
    settle(ballots_, x.ballot_id);
  if (x.cast)
    settle(votes_, {x.ballot_id, x.cast->voter});
}

void run_tracker::on(const messages::auction_event& x) {
  if (x.kind == messages::auction_event_kind::result)
    settle(auctions_, x.auction_id);
  if (x.placed)
    settle(bids_, {x.auction_id, x.placed->bidder});
}

void run_tracker::on(const messages::channel_event& x) {
  using kind = messages::channel_event_kind;
  switch (x.kind) {
  case kind::created:
    ++channels_[x.channel_id];
    return;
  case kind::finalized:
  case kind::force_finalized:
  case kind::failed:
    settle(channels_, x.channel_id);
    return;
  default:
    return;
  }
}

void run_tracker::barrier_back(std::uint64_t id) {
  barriers_.erase(id);
}

std::size_t run_tracker::lose_room(const std::string& room) {
  auto answered = erase_room(starts_, room);
  erase_room(open_, room);
  erase_room(barriers_, room);
  return answered;
}

bool run_tracker::idle() const noexcept {
  return starts_.empty() && open_.empty() && barriers_.empty() && ballots_.empty() &&
         auctions_.empty() && votes_.empty() && bids_.empty() && channels_.empty() &&
         demands_ == 0;
}

} // namespace parley::cli
