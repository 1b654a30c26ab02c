#pragma once

// The vocabulary of ballots (a proposal put to a vote) and task auctions
// (docs/protocols/ballots-and-auctions.md).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

#include "messages/event_sink.hpp"
#include "messages/fields.hpp"
#include "messages/handles/agent.hpp"
#include "messages/handles/auction.hpp"
#include "messages/handles/ballot.hpp"
#include "messages/handles/bus.hpp"
#include "messages/handles/timer.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// The consensus strategies (docs/protocols/ballots-and-auctions.md, "Strategies").
enum class ballot_strategy : std::uint8_t { majority, unanimous, weighted, veto };

/// How a ballot ended: a winning option other than "reject" approves.
enum class ballot_status : std::uint8_t { approved, rejected };

/// The three ballot topics: negotiation.propose / .vote / .result.
enum class ballot_event_kind : std::uint8_t { propose, vote, result };

/// How an auction ended.
enum class auction_status : std::uint8_t { awarded, no_bids };

/// The two auction topics: auction.bid / auction.result.
enum class auction_event_kind : std::uint8_t { bid, result };

/// An agent taking part in a ballot or an auction, with the role that sets its
/// weight, its veto right or its tie-break priority.
struct participant {
  std::string agent_id;
  std::string role;

  friend bool operator==(const participant& x, const participant& y) {
    return x.agent_id == y.agent_id && x.role == y.role;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, participant& x) {
  return f(caf::meta::type_name("participant"), field("agent_id", x.agent_id),
           optional_field("role", x.role));
}

/// A proposal put to a vote; the voters are fixed when it is created.
struct ballot_spec {
  std::string id;
  std::string topic;
  /// At least two distinct options; "reject" is the option of dissent.
  std::vector<std::string> options = {"approve", "reject"};
  ballot_strategy strategy = ballot_strategy::majority;
  std::vector<participant> voters;
  /// The voting window; the ballot resolves by itself when it closes.
  std::int64_t window_ms = 5000;
  /// Optional: the capability the ballot is about (rule agents vote by it).
  std::string task;

  friend bool operator==(const ballot_spec& x, const ballot_spec& y) {
    return x.id == y.id && x.topic == y.topic && x.options == y.options &&
           x.strategy == y.strategy && x.voters == y.voters &&
           x.window_ms == y.window_ms && x.task == y.task;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ballot_spec& x) {
  return f(caf::meta::type_name("ballot_spec"), field("id", x.id),
           field("topic", x.topic), optional_field("options", x.options),
           optional_field("strategy", x.strategy), field("voters", x.voters),
           optional_field("window_ms", x.window_ms), optional_field("task", x.task));
}

/// One vote; `option` is one of the ballot's options, or "veto".
struct vote {
  std::string ballot_id;
  std::string voter;
  std::string option;

  friend bool operator==(const vote& x, const vote& y) {
    return x.ballot_id == y.ballot_id && x.voter == y.voter && x.option == y.option;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, vote& x) {
  return f(caf::meta::type_name("vote"), field("ballot_id", x.ballot_id),
           field("voter", x.voter), field("option", x.option));
}

/// How a ballot resolved.
struct ballot_outcome {
  ballot_status status = ballot_status::rejected;
  /// The winning option; empty when no option won.
  std::string winner;
  /// Per option: votes (weights for the weighted strategy); "veto" counted apart.
  std::map<std::string, std::int64_t> tallies;
  std::int32_t eligible = 0;
  std::int32_t voted = 0;
  /// Resolved before the window closed, because nothing could change it.
  bool early = false;
  std::string reason;

  friend bool operator==(const ballot_outcome& x, const ballot_outcome& y) {
    return x.status == y.status && x.winner == y.winner && x.tallies == y.tallies &&
           x.eligible == y.eligible && x.voted == y.voted && x.early == y.early &&
           x.reason == y.reason;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ballot_outcome& x) {
  return f(caf::meta::type_name("ballot_outcome"), field("status", x.status),
           optional_field("winner", x.winner), optional_field("tallies", x.tallies),
           field("eligible", x.eligible), field("voted", x.voted),
           optional_field("early", x.early), optional_field("reason", x.reason));
}

/// A ballot's event: its proposal (with the spec), an accepted vote, or its
/// result (with the outcome).
struct ballot_event {
  ballot_event_kind kind = ballot_event_kind::propose;
  std::int64_t at_ms = 0;
  std::string ballot_id;
  std::string topic;
  caf::optional<ballot_spec> spec;
  caf::optional<messages::vote> cast;
  caf::optional<ballot_outcome> outcome;

  friend bool operator==(const ballot_event& x, const ballot_event& y) {
    return x.kind == y.kind && x.at_ms == y.at_ms && x.ballot_id == y.ballot_id &&
           x.topic == y.topic && x.spec == y.spec && x.cast == y.cast &&
           x.outcome == y.outcome;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ballot_event& x) {
  return f(caf::meta::type_name("ballot_event"), hand_written_field("type", x.kind),
           field("at_ms", x.at_ms), field("ballot_id", x.ballot_id),
           optional_field("topic", x.topic), omittable_field("spec", x.spec),
           omittable_field("vote", x.cast), omittable_field("outcome", x.outcome));
}

/// A task put up for auction to invited agents.
struct auction_spec {
  std::string id;
  /// The capability the task needs (rule agents bid with theirs).
  std::string task;
  std::vector<participant> invited;
  std::int64_t window_ms = 5000;
  /// What a rule agent's duration estimate starts from.
  std::int64_t base_duration_ms = 1000;

  friend bool operator==(const auction_spec& x, const auction_spec& y) {
    return x.id == y.id && x.task == y.task && x.invited == y.invited &&
           x.window_ms == y.window_ms && x.base_duration_ms == y.base_duration_ms;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, auction_spec& x) {
  return f(caf::meta::type_name("auction_spec"), field("id", x.id),
           field("task", x.task), field("invited", x.invited),
           optional_field("window_ms", x.window_ms),
           optional_field("base_duration_ms", x.base_duration_ms));
}

/// A bid: capability and load in 0..1, estimated duration > 0.
struct bid {
  std::string auction_id;
  std::string bidder;
  double capability = 0;
  double load = 0;
  std::int64_t estimated_duration_ms = 1;

  friend bool operator==(const bid& x, const bid& y) {
    return x.auction_id == y.auction_id && x.bidder == y.bidder &&
           x.capability == y.capability && x.load == y.load &&
           x.estimated_duration_ms == y.estimated_duration_ms;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, bid& x) {
  return f(caf::meta::type_name("bid"), field("auction_id", x.auction_id),
           field("bidder", x.bidder), field("capability", x.capability),
           field("load", x.load),
           field("estimated_duration_ms", x.estimated_duration_ms));
}

/// One bid's composite score (0.4 capability + 0.3 availability + 0.3 speed:
/// docs/protocols/ballots-and-auctions.md, "Scoring and the winner"), rounded to six
/// decimals; in ranking order in an outcome.
struct bid_score {
  std::string bidder;
  std::string role;
  double score = 0;
  double capability = 0;
  double availability = 0;
  double speed = 0;

  friend bool operator==(const bid_score& x, const bid_score& y) {
    return x.bidder == y.bidder && x.role == y.role && x.score == y.score &&
           x.capability == y.capability && x.availability == y.availability &&
           x.speed == y.speed;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, bid_score& x) {
  return f(caf::meta::type_name("bid_score"), field("bidder", x.bidder),
           optional_field("role", x.role), field("score", x.score),
           field("capability", x.capability), field("availability", x.availability),
           field("speed", x.speed));
}

/// How an auction ended.
struct auction_outcome {
  auction_status status = auction_status::no_bids;
  std::string winner;
  std::vector<bid_score> ranking;
  std::string reason;

  friend bool operator==(const auction_outcome& x, const auction_outcome& y) {
    return x.status == y.status && x.winner == y.winner && x.ranking == y.ranking &&
           x.reason == y.reason;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, auction_outcome& x) {
  return f(caf::meta::type_name("auction_outcome"), field("status", x.status),
           optional_field("winner", x.winner), optional_field("ranking", x.ranking),
           optional_field("reason", x.reason));
}

/// An auction's event: an accepted bid, or its result.
struct auction_event {
  auction_event_kind kind = auction_event_kind::bid;
  std::int64_t at_ms = 0;
  std::string auction_id;
  std::string task;
  caf::optional<messages::bid> placed;
  caf::optional<auction_outcome> outcome;

  friend bool operator==(const auction_event& x, const auction_event& y) {
    return x.kind == y.kind && x.at_ms == y.at_ms && x.auction_id == y.auction_id &&
           x.task == y.task && x.placed == y.placed && x.outcome == y.outcome;
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, auction_event& x) {
  return f(caf::meta::type_name("auction_event"), hand_written_field("type", x.kind),
           field("at_ms", x.at_ms), field("auction_id", x.auction_id),
           optional_field("task", x.task), omittable_field("bid", x.placed),
           omittable_field("outcome", x.outcome));
}

/// Invites an agent to vote: `ballot` takes the vote.
struct ballot_invite {
  actors::ballot_actor ballot;
  ballot_spec spec;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, ballot_invite& x) {
  return f(caf::meta::type_name("ballot_invite"), optional_field("ballot", x.ballot),
           field("spec", x.spec));
}

/// Invites an agent to bid: `auction` takes the bid.
struct auction_invite {
  actors::auction_actor auction;
  auction_spec spec;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, auction_invite& x) {
  return f(caf::meta::type_name("auction_invite"), optional_field("auction", x.auction),
           field("spec", x.spec));
}

/// Tells an agent exactly how to vote (scripted agents, scenarios).
struct cast_vote {
  actors::ballot_actor ballot;
  messages::vote vote;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, cast_vote& x) {
  return f(caf::meta::type_name("cast_vote"), optional_field("ballot", x.ballot),
           field("vote", x.vote));
}

/// Tells an agent exactly what to bid (scripted agents, scenarios).
struct place_bid {
  actors::auction_actor auction;
  messages::bid bid;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, place_bid& x) {
  return f(caf::meta::type_name("place_bid"), optional_field("auction", x.auction),
           field("bid", x.bid));
}

/// Who a ballot or an auction talks to. Any handle may be remote or unset.
struct consensus_peers {
  /// Receives its events and refusals.
  event_sink events;
  /// Also receives the result event (its creator).
  actors::subscriber_actor reporter;
  /// Agents to send the invite (one shared message) when it opens.
  std::map<std::string, actors::agent_actor> invite;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, consensus_peers& x) {
  return f(caf::meta::type_name("consensus_peers"), optional_field("events", x.events),
           optional_field("reporter", x.reporter),
           hand_written_field("invite", x.invite));
}

/// Opens a ballot in an idle ballot actor of its node (actors/ballot/actor.hpp);
/// its window is armed with `timers`.
struct open_ballot {
  ballot_spec spec;
  consensus_peers with;
  actors::timer_actor timers;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, open_ballot& x) {
  return f(caf::meta::type_name("open_ballot"), field("spec", x.spec),
           field("with", x.with), optional_field("timers", x.timers));
}

/// Opens an auction in an idle auction actor of its node
/// (actors/auction/actor.hpp); its window is armed with `timers`.
struct open_auction {
  auction_spec spec;
  consensus_peers with;
  actors::timer_actor timers;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, open_auction& x) {
  return f(caf::meta::type_name("open_auction"), field("spec", x.spec),
           field("with", x.with), optional_field("timers", x.timers));
}

std::string to_string(ballot_strategy x);
bool from_string(const std::string& text, ballot_strategy& x);
std::string to_string(ballot_status x);
bool from_string(const std::string& text, ballot_status& x);
std::string to_string(ballot_event_kind x);
bool from_string(const std::string& text, ballot_event_kind& x);
std::string to_string(auction_status x);
bool from_string(const std::string& text, auction_status& x);
std::string to_string(auction_event_kind x);
bool from_string(const std::string& text, auction_event_kind& x);

/// "negotiation.propose", "negotiation.vote", "negotiation.result".
topic topic_of(const ballot_event& x);
/// "auction.bid", "auction.result".
topic topic_of(const auction_event& x);

} // namespace parley::messages
