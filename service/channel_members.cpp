#include "service/channel_members.hpp"

#include <map>
#include <utility>
#include <vector>

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/exit_reason.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "messages/channel_member.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/type_ids.hpp"

namespace parley::service {

external_members::external_members(caf::actor_system& sys,
                                   std::chrono::milliseconds timeout,
                                   actors::store_actor store, bool clustered,
                                   caf::actor connector)
    : sys_(sys), timeout_(timeout), store_(store),
      router_(actors::channel::spawn_answer_router(
          sys, {std::move(store), clustered, std::move(connector), timeout})) {}

external_members::~external_members() {
  stop();
}

actors::external_member_actor external_members::add(const std::string& agent_id) {
  auto member =
      actors::channel::spawn_external_member(sys_, agent_id, timeout_, store_, router_);
  actors::external_member_actor earlier;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    std::swap(members_[agent_id], earlier);
    members_[agent_id] = member;
  }
  if (earlier)
    caf::anon_send_exit(earlier, caf::exit_reason::user_shutdown);
  return member;
}

actors::external_member_actor
external_members::find(const std::string& agent_id) const {
  std::lock_guard<std::mutex> guard{mtx_};
  auto i = members_.find(agent_id);
  return i == members_.end() ? actors::external_member_actor{} : i->second;
}

actors::answer_taker_actor external_members::taker(const std::string& agent_id) const {
  if (auto member = find(agent_id))
    return caf::actor_cast<actors::answer_taker_actor>(member);
  return router_;
}

void external_members::remove(const std::string& agent_id,
                              const actors::external_member_actor& member) {
  std::lock_guard<std::mutex> guard{mtx_};
  if (auto i = members_.find(agent_id); i != members_.end() && i->second == member)
    members_.erase(i);
}

void external_members::stop() {
  std::map<std::string, actors::external_member_actor> members;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    members.swap(members_);
  }
  for (const auto& [id, member] : members)
    caf::anon_send_exit(member, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(router_, caf::exit_reason::user_shutdown);
}

void restore_answers(const external_members& external,
                     const std::vector<messages::channel_event>& events) {
  std::map<std::string, std::vector<std::string>> answered;
  for (const auto& x : events)
    messages::visit_answer(
        x, [&](const std::string& agent_id, const std::string& message_id) {
          answered[agent_id].push_back(message_id);
        });
  for (auto& [agent_id, ids] : answered)
    if (auto member = external.find(agent_id))
      caf::anon_send(member, messages::answered_atom::value, std::move(ids));
}

namespace {

/// Runs `f` once `agent`'s actor has ended.
template <class F> void when_ended(const actors::agent_actor& agent, F f) {
  if (auto ptr = caf::actor_cast<caf::strong_actor_ptr>(agent))
    ptr->get()->attach_functor(std::move(f));
}

} // namespace

void join_channels(runtime::world& w, const std::shared_ptr<external_members>& external,
                   const messages::agent_spec& spec, const actors::agent_actor& agent) {
  if (spec.profile.capabilities.empty())
    return;
  messages::channel_profile profile{
      spec.id, spec.profile.display_name, {}, spec.profile.role, true};
  for (const auto& [tag, weight] : spec.profile.capabilities)
    profile.capabilities.push_back(tag);
  if (spec.brain.kind != messages::brain_kind::external) {
    messages::channel_member_spec member;
    member.profile = std::move(profile);
    if (spec.brain.kind == messages::brain_kind::llm)
      member.brain = messages::member_brain_kind::llm;
    when_ended(agent, [m = w.add_channel_member(std::move(member))] {
      caf::anon_send_exit(m, caf::exit_reason::user_shutdown);
    });
    return;
  }
  auto member = external->add(spec.id);
  caf::anon_send(w.coordinator(),
                 messages::register_member{std::move(profile), member});
  when_ended(agent, [member, id = spec.id,
                     registry = std::weak_ptr<external_members>{external}] {
    if (auto x = registry.lock())
      x->remove(id, member);
    caf::anon_send_exit(member, caf::exit_reason::user_shutdown);
  });
}

} // namespace parley::service
