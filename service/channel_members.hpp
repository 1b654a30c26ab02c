#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "caf/actor.hpp"
#include "caf/fwd.hpp"

#include "actors/channel/answer_router.hpp"
#include "actors/channel/external_member.hpp"
#include "messages/agent_profile.hpp"
#include "messages/channel_event.hpp"
#include "runtime/world.hpp"

namespace parley::service {

/// The external channel members of `parley serve`, by agent id: the routes
/// find the one a request names here without asking an actor. Safe from
/// several threads at once (the gateway adds, the I/O threads find).
class external_members {
public:
  /// A forwarded answer the channel has not taken within `timeout` is
  /// refused; an answer to a channel that asked the member nothing goes to
  /// the answer router over `store` (actors/channel/answer_router.hpp,
  /// actors/channel/external_member.hpp), which forwards, on a cluster's
  /// node (`clustered`), one of a channel another node runs through
  /// `connector`.
  external_members(caf::actor_system& sys, std::chrono::milliseconds timeout,
                   actors::store_actor store, bool clustered = false,
                   caf::actor connector = {});

  /// Stops the members (see `stop`).
  ~external_members();

  external_members(const external_members&) = delete;
  external_members& operator=(const external_members&) = delete;

  /// Spawns the external member of `agent_id`, stopping an earlier one of
  /// that id (a re-registered agent starts with an empty inbox).
  actors::external_member_actor add(const std::string& agent_id);

  /// The member of `agent_id`; an unset handle when it has none.
  actors::external_member_actor find(const std::string& agent_id) const;

  /// Forgets `member` as the member of `agent_id`, unless another one took
  /// its place since.
  void remove(const std::string& agent_id, const actors::external_member_actor& member);

  /// Who takes an answer of `agent_id` on a cluster's node: its member, or
  /// else the router (its channel may run on another node, and the agent
  /// is not known here yet).
  actors::answer_taker_actor taker(const std::string& agent_id) const;

  /// Stops every member and the router. Idempotent.
  void stop();

private:
  caf::actor_system& sys_;
  std::chrono::milliseconds timeout_;
  actors::store_actor store_;
  actors::answer_router_actor router_;
  mutable std::mutex mtx_;
  std::map<std::string, actors::external_member_actor> members_;
};

/// Tells each external member the message ids of its answers among
/// `events` (the stored events of the open channels, at a restart): a
/// replay of one is ignored (E011) after the restart as before it.
void restore_answers(const external_members& external,
                     const std::vector<messages::channel_event>& events);

/// Makes the agent `spec` registers a channel member of `w` too when its profile lists
/// capabilities: their names are its capability tags (docs/protocols/channels.md) (the
/// weights matter to bilateral negotiation only). An external brain gets an external
/// member (its answers come over the API), an LLM brain the LLM member of
/// actors/channel/llm_member.hpp (the world's model), any other brain the deterministic
/// rule member of actors/channel/member.hpp. Each is registered with the world's
/// coordinator with its channel profile: agent id, display name, the tags, the role as
/// description, active.
///
/// The member ends with `agent`'s actor (the agent deleted, or registered
/// again): the coordinator then picks it no more, and an external one is
/// no longer found in `external`.
void join_channels(runtime::world& w, const std::shared_ptr<external_members>& external,
                   const messages::agent_spec& spec, const actors::agent_actor& agent);

} // namespace parley::service
