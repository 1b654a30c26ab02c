#pragma once

// A channel's events as its actor publishes them, for the tests of what
// consumes them (the store, the printer): one round that ends as asked.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "messages/channel_event.hpp"

namespace parley::test {

/// What a story's channel does after its round's feedback.
enum class channel_ending : std::uint8_t { finalized, failed, open };

/// Channel `id` of demand `demand_id`, from `at_ms` (each event 10 ms after
/// the one before): created with candidates bob and carol, the demand put to
/// both, their offers (bob's twice: a later answer replaces the first), the
/// proposal to both, their feedback; then, for `finalized`, evaluated and
/// finalized; for `failed`, evaluated and failed; for `open`, nothing more.
inline std::vector<messages::channel_event> channel_story(const std::string& id,
                                                          const std::string& demand_id,
                                                          std::int64_t at_ms,
                                                          channel_ending ending) {
  using kind = messages::channel_event_kind;
  std::vector<messages::channel_event> out;
  auto add = [&](kind k) -> messages::channel_event& {
    messages::channel_event x;
    x.kind = k;
    x.at_ms = at_ms + 10 * static_cast<std::int64_t>(out.size());
    x.channel_id = id;
    x.demand_id = demand_id;
    out.push_back(std::move(x));
    return out.back();
  };
  messages::channel_proposal proposal;
  proposal.proposal_id = id + "-p1";
  proposal.demand_id = demand_id;
  proposal.summary = "bob hosts, carol speaks";
  proposal.created_at = at_ms;
  auto& created = add(kind::created);
  created.agents = {"bob", "carol"};
  created.setup = messages::channel_setup{
      "a venue and a speaker", {"venue"}, {}, "", 0, messages::channel_settings{}};
  add(kind::demand_broadcast).agents = {"bob", "carol"};
  for (const auto* agent : {"bob", "bob", "carol"}) {
    messages::offer_response offer;
    offer.channel_id = id;
    offer.agent_id = agent;
    offer.message_id = std::string{agent} + "-offer-" + std::to_string(out.size());
    add(kind::offer_submitted).offer = offer;
  }
  add(kind::proposal_distributed).proposal = proposal;
  for (const auto* agent : {"bob", "carol"}) {
    messages::proposal_feedback feedback;
    feedback.channel_id = id;
    feedback.agent_id = agent;
    feedback.message_id = std::string{agent} + "-feedback";
    add(kind::proposal_feedback).feedback = feedback;
  }
  if (ending == channel_ending::open)
    return out;
  auto accepted = ending == channel_ending::finalized;
  add(kind::feedback_evaluated).tally =
      messages::channel_tally{accepted ? 2 : 0, 0, 0, accepted ? 1.0 : 0.0,
                              accepted ? messages::channel_decision::finalize
                                       : messages::channel_decision::fail};
  auto& last = add(accepted ? kind::finalized : kind::failed);
  last.proposal = proposal;
  if (!accepted)
    last.reason = "low_acceptance";
  return out;
}

} // namespace parley::test
