#include "actors/auction/actor.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"

#include "actors/auction/rules.hpp"
#include "actors/common/consensus_actor.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::auction {

namespace {

/// What makes the consensus shell an auction (actors/common/consensus_actor.hpp).
struct kind {
  using handle = auction_actor;
  using rules = auction::rules;
  using effects = auction::effects;
  using spec = messages::auction_spec;
  using open_message = messages::open_auction;
  using entry = messages::bid;
  using event = messages::auction_event;
  using event_kind = messages::auction_event_kind;
  using invite = messages::auction_invite;

  static constexpr const char* actor_name = "parley.auction";
  static constexpr const char* noun = "auction";
  static constexpr auto entry_topic = messages::topic::auction_bid;
  static constexpr auto result_topic = messages::topic::auction_result;
  static constexpr auto entry_kind = messages::auction_event_kind::bid;
  static constexpr auto result_kind = messages::auction_event_kind::result;
  static constexpr auto wrong_id = messages::error_code::invalid_bid;
  static constexpr auto invalid_spec = messages::error_code::invalid_ballot;

  static std::string validate(const spec& x) { return auction::validate(x); }
  static const std::string& id_of(const entry& x) { return x.auction_id; }
  static const std::string& agent_of(const entry& x) { return x.bidder; }
  static void take(rules& core, const entry& x, effects& fx) { core.on_bid(x, fx); }
  static void set_entry(event& x, entry placed) { x.placed = std::move(placed); }
  /// An auction goes back to its pool as soon as it is resolved.
  static bool done(const effects& fx) { return fx.resolved.has_value(); }

  static event event_of(const spec& s, event_kind k, std::int64_t at_ms) {
    event x;
    x.kind = k;
    x.at_ms = at_ms;
    x.auction_id = s.id;
    x.task = s.task;
    return x;
  }

  /// An auction publishes nothing before it invites the bidders.
  template <class Self> static void on_open(Self*, const open_message&, std::int64_t) {}
};

} // namespace

pool::pool(caf::actor_system& sys) : actor_pool(sys, &spawn_auction) {}

auction_actor spawn_auction(caf::actor_system& sys,
                            std::weak_ptr<actor_pool<auction_actor>> home) {
  return sys.spawn<consensus::kind_actor<kind>, caf::lazy_init>(std::move(home));
}

auction_actor open(pool& auctions, messages::auction_spec spec, peers with,
                   timer_actor timers) {
  auto x = auctions.acquire();
  caf::anon_send(
      x, messages::open_auction{std::move(spec), std::move(with), std::move(timers)});
  return x;
}

} // namespace parley::actors::auction
