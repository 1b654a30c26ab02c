#include "actors/ballot/actor.hpp"

#include <utility>

#include "caf/actor_system.hpp"
#include "caf/send.hpp"

#include "actors/ballot/rules.hpp"
#include "actors/common/consensus_actor.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::ballot {

namespace {

/// What makes the consensus shell a ballot (actors/common/consensus_actor.hpp).
struct kind {
  using handle = ballot_actor;
  using rules = ballot::rules;
  using effects = ballot::effects;
  using spec = messages::ballot_spec;
  using open_message = messages::open_ballot;
  using entry = messages::vote;
  using event = messages::ballot_event;
  using event_kind = messages::ballot_event_kind;
  using invite = messages::ballot_invite;

  static constexpr const char* actor_name = "parley.ballot";
  static constexpr const char* noun = "ballot";
  static constexpr auto entry_topic = messages::topic::ballot_vote;
  static constexpr auto result_topic = messages::topic::ballot_result;
  static constexpr auto entry_kind = messages::ballot_event_kind::vote;
  static constexpr auto result_kind = messages::ballot_event_kind::result;
  static constexpr auto wrong_id = messages::error_code::invalid_vote;
  static constexpr auto invalid_spec = messages::error_code::invalid_ballot;

  static std::string validate(const spec& x) { return ballot::validate(x); }
  static const std::string& id_of(const entry& x) { return x.ballot_id; }
  static const std::string& agent_of(const entry& x) { return x.voter; }
  static void take(rules& core, const entry& x, effects& fx) { core.on_vote(x, fx); }
  static void set_entry(event& x, entry cast) { x.cast = std::move(cast); }
  /// A ballot goes back to its pool once nothing more can reach it usefully:
  /// resolved, and every voter voted or the window closed.
  static bool done(const effects& fx) { return fx.finished; }

  static event event_of(const spec& s, event_kind k, std::int64_t at_ms) {
    event x;
    x.kind = k;
    x.at_ms = at_ms;
    x.ballot_id = s.id;
    x.topic = s.topic;
    return x;
  }

  /// A ballot publishes its proposal before it invites the voters.
  template <class Self>
  static void on_open(Self* self, const open_message& x, std::int64_t at_ms) {
    if (!x.with.events.wants(messages::topic::ballot_proposed))
      return;
    auto proposed = event_of(x.spec, messages::ballot_event_kind::propose, at_ms);
    proposed.spec = x.spec;
    consensus::publish(self, x.with, messages::topic::ballot_proposed,
                       caf::make_message(std::move(proposed)));
  }
};

} // namespace

pool::pool(caf::actor_system& sys) : actor_pool(sys, &spawn_ballot) {}

ballot_actor spawn_ballot(caf::actor_system& sys,
                          std::weak_ptr<actor_pool<ballot_actor>> home) {
  return sys.spawn<consensus::kind_actor<kind>, caf::lazy_init>(std::move(home));
}

ballot_actor open(pool& ballots, messages::ballot_spec spec, peers with,
                  timer_actor timers) {
  auto x = ballots.acquire();
  caf::anon_send(
      x, messages::open_ballot{std::move(spec), std::move(with), std::move(timers)});
  return x;
}

} // namespace parley::actors::ballot
