#include "actors/coordinator/actor.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/system_messages.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/channel/actor.hpp"
#include "actors/channel/rules.hpp"
#include "actors/channel/snapshot.hpp"
#include "actors/common/forward.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/coordinator/prompts.hpp"
#include "actors/coordinator/rules.hpp"
#include "actors/llm/text_reply.hpp"
#include "messages/api.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/events.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::coordinator {

namespace {

using messages::channel_event_kind;
using messages::demand_status;
using messages::error_code;

/// A registered member: what it offers, and where it is reached.
struct member {
  messages::channel_profile profile;
  channel_member_actor agent;
};

/// A channel the coordinator opened: its demand, where it is in the
/// demand's view, and how many sub-channels it opened.
struct channel_entry {
  std::string demand_id;
  std::size_t index = 0;
  std::int32_t subchannels = 0;
};

/// A top demand whose brain is the LLM, waiting for the model: prompt 1's
/// answer, then prompt 2's (and its retry's).
struct asking {
  enum class step { understanding, selection, retry };
  caf::typed_response_promise<messages::demand_receipt> promise;
  messages::submit_demand request;
  std::string channel_id;
  step at = step::understanding;
  messages::demand_understanding understanding;
  /// The agents prompt 2 was shown.
  std::vector<messages::channel_profile> agents;
};

/// How long the store may take to commit a demand's row, or read one.
constexpr auto store_limit = std::chrono::seconds(10);

struct coordinator_state {
  static inline const char* name = "parley.coordinator";
  messages::channel_settings settings;
  std::uint64_t seed = 0;
  coordinator_peers with;
  /// The model of an LLM brain.
  llm::prompt_model model;
  std::optional<wall_clock> clock;
  /// By agent id: the order the rules see them in.
  std::map<std::string, member> members;
  /// Demand ids made so far: the counter of `make_demand_id`.
  std::uint64_t made_ids = 0;
  std::map<std::string, messages::demand_view> demands;
  std::map<std::string, channel_entry> channels;
  /// Demands waiting for the model, by call id; their demand ids are taken.
  std::map<std::uint64_t, asking> asked;
  std::uint64_t call_id = 0;
  /// Where demands are kept (`put, store`); none: in this actor only.
  store_actor store;
};

/// Whether demands go to the model (an LLM brain with a client).
bool uses_llm(const coordinator_state& st) {
  return st.settings.coordinator_brain == "llm" && st.model.client;
}

/// Whether `id` is a demand's, or one waiting for the model.
bool taken(const coordinator_state& st, const std::string& id) {
  if (st.demands.count(id) > 0)
    return true;
  for (const auto& entry : st.asked)
    if (entry.second.request.demand_id == id)
      return true;
  return false;
}

using coordinator_pointer = coordinator_actor::stateful_pointer<coordinator_state>;

/// SplitMix64's finalizer: spreads a seed and a counter over 64 bits.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

/// FNV-1a: a channel id's own seed for its fallback draw, the same on every
/// platform (std::hash is not).
std::uint64_t hash_of(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (auto c : text)
    h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
  return h;
}

std::string make_demand_id(coordinator_state& st) {
  for (;;) {
    char digits[9];
    std::snprintf(digits, sizeof digits, "%08x",
                  static_cast<unsigned>(mix(st.seed ^ ++st.made_ids) & 0xFFFFFFFFU));
    auto id = std::string{"d-"} + digits;
    if (!taken(st, id))
      return id;
  }
}

std::string top_channel_id(const std::string& demand_id) {
  auto tail = demand_id.rfind("d-", 0) == 0 ? demand_id.substr(2) : demand_id;
  return "collab-" + tail;
}

std::vector<messages::channel_profile> profiles(const coordinator_state& st) {
  std::vector<messages::channel_profile> xs;
  for (const auto& entry : st.members)
    xs.push_back(entry.second.profile);
  return xs;
}

// -- the rule brain: understands demands and picks candidates (the LLM brain,
// below, asks prompts 1 and 2 and falls back on these rules).

messages::demand_understanding understand_demand(const coordinator_state& st,
                                                 const std::string& raw_input) {
  return understand(raw_input, capability_vocabulary(profiles(st)));
}

std::optional<refusal>
pick_candidates(const coordinator_state& st,
                const messages::demand_understanding& demand,
                const std::vector<messages::channel_profile>& pool,
                const std::string& channel_id, messages::candidate_selection& out) {
  return select_candidates(demand, pool, mix(st.seed ^ hash_of(channel_id)), out,
                           st.settings);
}

// -- events -----------------------------------------------------------------

messages::channel_event make_event(coordinator_pointer self, channel_event_kind kind,
                                   const std::string& demand_id,
                                   const std::string& channel_id = {}) {
  messages::channel_event x;
  x.kind = kind;
  x.at_ms = self->state.clock->now_ms();
  x.demand_id = demand_id;
  x.channel_id = channel_id;
  return x;
}

/// Publishes one of the coordinator's own events.
void announce(coordinator_pointer self, messages::channel_event x) {
  const auto& st = self->state;
  auto t = messages::topic_of(x.kind);
  if (st.with.events.wants(t))
    publish(self, st.with.events, t, std::move(x));
}

// -- channels ---------------------------------------------------------------

/// What a channel opens with: where it sits and what it asks for.
struct opening {
  std::string demand_id;
  std::string channel_id;
  std::string parent_channel_id;
  std::int32_t depth = 0;
  std::string surface_demand;
  std::vector<std::string> capability_tags;
};

void open_channel(coordinator_pointer self, opening x,
                  const messages::candidate_selection& selection) {
  auto& st = self->state;
  channel::channel_spec spec;
  spec.channel_id = x.channel_id;
  spec.demand_id = x.demand_id;
  spec.surface_demand = x.surface_demand;
  spec.capability_tags = x.capability_tags;
  spec.settings = st.settings;
  spec.parent_channel_id = x.parent_channel_id;
  spec.depth = x.depth;
  // A candidate whose member ended while the model chose (its agent
  // deleted) stays in the channel unreached: the channel goes on without
  // its answer, as with any member that stops answering.
  for (const auto& c : selection.candidates) {
    auto m = st.members.find(c.agent_id);
    spec.candidates.push_back(
        {c.agent_id, c.display_name, c.reason, c.relevance_score,
         m != st.members.end() ? m->second.agent : channel_member_actor{},
         m != st.members.end() ? m->second.profile.capabilities : c.capabilities});
  }
  auto& view = st.demands.at(x.demand_id);
  messages::channel_outcome outcome;
  outcome.channel_id = x.channel_id;
  outcome.parent_channel_id = x.parent_channel_id;
  outcome.depth = x.depth;
  outcome.capability_tags = x.capability_tags;
  st.channels[x.channel_id] = channel_entry{x.demand_id, view.channels.size(), 0};
  view.channels.push_back(std::move(outcome));
  channel::peers with{st.with.events, caf::actor_cast<channel_reporter_actor>(self),
                      st.with.timers};
  if (uses_llm(st))
    with.aggregation = {std::make_shared<const llm::prompt_model>(st.model),
                        channel::aggregation_timeout_ms(st.settings)};
  channel::spawn_channel(self->system(), std::move(spec), std::move(with));
}

/// The members a sub-channel of `parent` picks from: those not taking part
/// in it, unless none of them is active.
std::vector<messages::channel_profile>
subchannel_pool(const coordinator_state& st, const messages::channel_proposal& parent) {
  std::set<std::string> taking_part;
  for (const auto& a : parent.assignments)
    taking_part.insert(a.agent_id);
  std::vector<messages::channel_profile> others;
  for (const auto& entry : st.members)
    if (taking_part.count(entry.first) == 0)
      others.push_back(entry.second.profile);
  auto any_active =
      std::any_of(others.begin(), others.end(), [](const auto& x) { return x.active; });
  return any_active ? others : profiles(st);
}

/// Opens the sub-channels rules::plan_subchannels allows for a channel that
/// ended with `proposal`. A gap nobody can be picked for (E005: every member
/// went inactive meanwhile) stays only noted.
void open_subchannels(coordinator_pointer self, const std::string& parent_id,
                      channel::channel_status status, std::int32_t depth,
                      const messages::channel_proposal& proposal) {
  auto& st = self->state;
  auto plan = channel::plan_subchannels(
      status, depth, st.channels.at(parent_id).subchannels, proposal, st.settings);
  if (plan.open.empty())
    return;
  auto pool = subchannel_pool(st, proposal);
  auto demand_id = st.channels.at(parent_id).demand_id;
  auto surface = st.demands.at(demand_id).understanding.surface_demand;
  for (const auto& gap : plan.open) {
    auto n = ++st.channels.at(parent_id).subchannels;
    opening x{demand_id, parent_id + "-sub" + std::to_string(n),
              parent_id, depth + 1,
              surface,   gap.capability_tags};
    messages::demand_understanding need;
    need.surface_demand = surface;
    need.capability_tags = gap.capability_tags;
    messages::candidate_selection selection;
    if (pick_candidates(st, need, pool, x.channel_id, selection))
      continue;
    auto filtered =
        make_event(self, channel_event_kind::filter_completed, demand_id, x.channel_id);
    filtered.selection = selection;
    announce(self, std::move(filtered));
    open_channel(self, std::move(x), selection);
  }
}

void on_channel_event(coordinator_pointer self, const messages::channel_event& x) {
  auto& st = self->state;
  auto i = st.channels.find(x.channel_id);
  if (i == st.channels.end())
    return; // not one of its channels
  auto& view = st.demands.at(i->second.demand_id);
  auto& outcome = view.channels.at(i->second.index);
  if (outcome.status != demand_status::processing)
    return; // the channel ended: nothing it (or a stray) says changes that
  channel::channel_status status;
  switch (x.kind) {
  case channel_event_kind::finalized:
    outcome.status = demand_status::finalized;
    status = channel::channel_status::finalized;
    break;
  case channel_event_kind::force_finalized:
    outcome.status = demand_status::force_finalized;
    status = channel::channel_status::force_finalized;
    break;
  case channel_event_kind::failed:
    outcome.status = demand_status::failed;
    outcome.reason = x.reason;
    outcome.proposal = x.proposal;
    view.status = messages::status_of(view.channels);
    return;
  default:
    return;
  }
  outcome.proposal = x.proposal;
  if (outcome.depth == 0)
    view.proposal = x.proposal;
  // Opening a sub-channel adds to view.channels: `outcome` is not used after.
  if (x.proposal)
    open_subchannels(self, x.channel_id, status, outcome.depth, *x.proposal);
  view.status = messages::status_of(view.channels);
}

// -- a restart --------------------------------------------------------------

/// Why channel `x` (its events folded), not known here, cannot be taken up
/// again; empty when it can.
std::string unresumable(const channel::channel_snapshot& x) {
  if (channel::is_terminal(x.status))
    return "it ended already";
  if (auto invalid = messages::validate(x.setup.settings); !invalid.empty())
    return "its settings are invalid: " + invalid;
  return {};
}

/// Takes up channel `x` again: its place in its demand's view (the demand
/// rebuilt, when it is not known, from what the channel knows of it: the
/// surface demand and a top channel's tags), and the channel actor, its
/// candidates reached at the members registered now. Whether the demand
/// was rebuilt.
bool resume_one(coordinator_pointer self, const channel::channel_snapshot& x) {
  auto& st = self->state;
  auto [i, added] = st.demands.try_emplace(x.demand_id);
  auto& view = i->second;
  if (added) {
    view.demand_id = x.demand_id;
    view.understanding.surface_demand = x.setup.surface_demand;
    if (x.setup.depth == 0)
      view.understanding.capability_tags = x.setup.capability_tags;
  }
  messages::channel_outcome outcome;
  outcome.channel_id = x.channel_id;
  outcome.parent_channel_id = x.setup.parent_channel_id;
  outcome.depth = x.setup.depth;
  outcome.capability_tags = x.setup.capability_tags;
  st.channels[x.channel_id] = channel_entry{x.demand_id, view.channels.size(), 0};
  view.channels.push_back(std::move(outcome));
  std::map<std::string, channel_member_actor> agents;
  for (const auto& c : x.setup.candidates)
    if (auto m = st.members.find(c.agent_id); m != st.members.end())
      agents.emplace(c.agent_id, m->second.agent);
  channel::resume_channel(
      self->system(), x, std::move(agents),
      {st.with.events, caf::actor_cast<channel_reporter_actor>(self), st.with.timers});
  return added;
}

/// Gives the demands `ids`, rebuilt from their channels, what the store
/// kept of their submission (user, raw input, understanding), then answers
/// `report`; at once without a store. A demand the store does not have
/// stays as rebuilt.
caf::result<messages::recovery_report>
complete_demands(coordinator_pointer self, const std::vector<std::string>& ids,
                 messages::recovery_report report) {
  auto& st = self->state;
  if (!st.store || ids.empty())
    return report;
  auto promise = self->make_response_promise<messages::recovery_report>();
  auto left = std::make_shared<std::size_t>(ids.size());
  auto shared_report = std::make_shared<messages::recovery_report>(std::move(report));
  auto one_done = [promise, left, shared_report]() mutable {
    if (--*left == 0)
      promise.deliver(std::move(*shared_report));
  };
  for (const auto& id : ids)
    self->request(st.store, store_limit, messages::get_atom::value,
                  messages::demand_atom::value, id)
        .then(
            [self, id, one_done](messages::demand_view& stored) mutable {
              auto i = self->state.demands.find(id);
              // A submitted demand's raw input is never empty: the row exists.
              if (i != self->state.demands.end() && !stored.raw_input.empty()) {
                i->second.user_id = std::move(stored.user_id);
                i->second.raw_input = std::move(stored.raw_input);
                i->second.understanding = std::move(stored.understanding);
              }
              one_done();
            },
            [one_done](caf::error&) mutable { one_done(); });
  return promise;
}

/// Resumes the channels of `events` (channel by channel, each in order).
caf::result<messages::recovery_report>
on_resume(coordinator_pointer self,
          const std::vector<messages::channel_event>& events) {
  messages::recovery_report report;
  std::vector<std::string> rebuilt;
  for (auto begin = events.begin(); begin != events.end();) {
    const auto& id = begin->channel_id;
    auto end = std::find_if(begin, events.end(),
                            [&id](const auto& e) { return e.channel_id != id; });
    auto snapshot = channel::fold({begin, end});
    begin = end;
    // One it runs already (a later recovery of a cluster's node reads every
    // open channel the node owns) is left as it is.
    if (snapshot && self->state.channels.count(snapshot->channel_id) > 0)
      continue;
    auto why = snapshot ? unresumable(*snapshot)
                        : std::string{"its events do not begin with channel.created"};
    if (!why.empty()) {
      report.skipped.push_back("channel " + id + ": " + why);
      continue;
    }
    if (resume_one(self, *snapshot))
      rebuilt.push_back(snapshot->demand_id);
    ++report.channels;
  }
  return complete_demands(self, rebuilt, std::move(report));
}

// -- requests ---------------------------------------------------------------

caf::result<void> on_register(coordinator_pointer self, messages::register_member& x) {
  if (x.profile.agent_id.empty())
    return messages::make_error(error_code::invalid_request,
                                "a member needs an agent_id");
  if (!x.agent)
    return messages::make_error(error_code::invalid_request,
                                "member " + x.profile.agent_id + " has no handle");
  auto id = x.profile.agent_id;
  // A member that ends (its agent deleted, its node gone) is picked no more:
  // see forget_member.
  self->monitor(x.agent);
  self->state.members[id] = member{std::move(x.profile), std::move(x.agent)};
  return caf::unit;
}

/// Drops the member that ended, unless its id was registered again since
/// with another actor.
void forget_member(coordinator_pointer self, const caf::actor_addr& ended) {
  auto& members = self->state.members;
  for (auto i = members.begin(); i != members.end(); ++i)
    if (i->second.agent.address() == ended) {
      members.erase(i);
      return;
    }
}

/// Records a demand that was understood and given candidates, announces
/// both, and opens its top channel.
messages::demand_receipt open_demand(coordinator_pointer self,
                                     messages::submit_demand request,
                                     const std::string& channel_id,
                                     messages::demand_understanding understanding,
                                     messages::candidate_selection selection) {
  auto& st = self->state;
  auto demand_id = request.demand_id;
  messages::demand_view view;
  view.demand_id = demand_id;
  view.user_id = std::move(request.user_id);
  view.raw_input = std::move(request.raw_input);
  view.understanding = understanding;
  st.demands.emplace(demand_id, std::move(view));
  auto understood = make_event(self, channel_event_kind::demand_understood, demand_id);
  understood.understanding = understanding;
  announce(self, std::move(understood));
  auto filtered = make_event(self, channel_event_kind::filter_completed, demand_id);
  filtered.selection = selection;
  announce(self, std::move(filtered));
  open_channel(self,
               {demand_id,
                channel_id,
                {},
                0,
                understanding.surface_demand,
                understanding.capability_tags},
               selection);
  return messages::demand_receipt{demand_id, channel_id, demand_status::processing,
                                  std::move(understanding)};
}

/// Answers `receipt` once the store committed its demand's row, so that a
/// restarted serve finds the demand; at once without a store. A store that
/// fails the write is reported (E028, a warning) and the receipt answered
/// anyway: the demand's channel is running.
void answer_receipt(coordinator_pointer self,
                    caf::typed_response_promise<messages::demand_receipt> promise,
                    messages::demand_receipt receipt) {
  auto& st = self->state;
  if (!st.store) {
    promise.deliver(std::move(receipt));
    return;
  }
  const auto& view = st.demands.at(receipt.demand_id);
  self->request(st.store, store_limit, caf::put_atom::value, view)
      .then([promise, receipt](bool) mutable { promise.deliver(std::move(receipt)); },
            [self, promise, receipt](caf::error& err) mutable {
              auto& st = self->state;
              if (st.with.events.wants(messages::topic::warning))
                publish(self, st.with.events, messages::topic::warning,
                        messages::problem_event{
                            messages::severity::warning,
                            error_code::store_failed,
                            "coordinator: demand " + receipt.demand_id +
                                " is not stored: " + self->system().render(err),
                            st.clock->now_ms(),
                            {},
                            {},
                            {},
                            receipt.demand_id});
              promise.deliver(std::move(receipt));
            });
}

// -- the LLM brain ----------------------------------------------------------

/// Publishes that the brain fell back on the rules, and why.
void warn_fallback(coordinator_pointer self, const asking& a, const char* what,
                   error_code code, const std::string& why) {
  const auto& st = self->state;
  if (!st.with.events.wants(messages::topic::warning))
    return;
  publish(self, st.with.events, messages::topic::warning,
          messages::problem_event{messages::severity::warning,
                                  code,
                                  "coordinator: demand " + a.request.demand_id + ": " +
                                      what + " fell back on the rules: " + why,
                                  st.clock->now_ms(),
                                  {},
                                  {},
                                  {},
                                  a.request.demand_id});
}

/// Sends `prompt` to the model for `a`, which waits under the call's id.
void ask(coordinator_pointer self, const llm::text_prompt& prompt, asking a) {
  auto& st = self->state;
  auto id = ++st.call_id;
  st.asked.emplace(id, std::move(a));
  self->send(st.model.client, st.model.request(id, prompt));
}

/// The model understood the demand (or the rules did): asks prompt 2 unless
/// the rules refuse the demand (E005) first.
void ask_selection(coordinator_pointer self, asking a) {
  auto& st = self->state;
  a.agents = profiles(st);
  messages::candidate_selection ruled;
  if (auto refused =
          pick_candidates(st, a.understanding, a.agents, a.channel_id, ruled)) {
    a.promise.deliver(messages::make_error(refused->code, std::move(refused->message)));
    return;
  }
  a.at = asking::step::selection;
  auto prompt = selection_prompt(a.understanding, a.agents, st.settings);
  ask(self, prompt, std::move(a));
}

/// Opens the demand with the selection the model (or the fallback) made.
void selected(coordinator_pointer self, asking a,
              messages::candidate_selection selection) {
  auto receipt = open_demand(self, std::move(a.request), a.channel_id,
                             std::move(a.understanding), std::move(selection));
  answer_receipt(self, std::move(a.promise), std::move(receipt));
}

void on_model_answer(coordinator_pointer self, const messages::llm_response& x) {
  auto& st = self->state;
  auto i = st.asked.find(x.call_id);
  if (i == st.asked.end())
    return;
  auto a = std::move(i->second);
  st.asked.erase(i);
  auto reply = llm::read_text_reply(st.model.provider, x);
  auto code = reply.ok() ? error_code::invalid_request : reply.code;
  if (a.at == asking::step::understanding) {
    auto read = read_understanding(reply.text, a.request.raw_input,
                                   capability_vocabulary(profiles(st)));
    if (!reply.ok() || read.fallback())
      warn_fallback(self, a, "prompt 1 (understanding)", code,
                    reply.ok() ? read.fallback_reason : reply.error);
    a.understanding = std::move(read.value);
    ask_selection(self, std::move(a));
    return;
  }
  auto pass = a.at == asking::step::selection ? messages::selection_source::matched
                                              : messages::selection_source::relaxed;
  auto read = read_selection(reply.text, a.agents, st.settings, pass,
                             mix(st.seed ^ hash_of(a.channel_id)));
  if (!read.fallback()) {
    selected(self, std::move(a), std::move(read.value));
    return;
  }
  auto why = reply.ok() ? read.fallback_reason : reply.error;
  // An unusable answer is asked again, relaxed
  // (docs/protocols/channels.md, "Candidate selection"); a call that failed is not (the
  // provider would most likely fail it again).
  if (a.at == asking::step::selection && reply.ok()) {
    a.at = asking::step::retry;
    auto prompt = selection_retry_prompt(a.understanding, a.agents, st.settings, why);
    ask(self, prompt, std::move(a));
    return;
  }
  warn_fallback(self, a, "prompt 2 (candidate selection)", code, why);
  selected(self, std::move(a), std::move(read.value));
}

// -- requests ---------------------------------------------------------------

caf::result<messages::demand_receipt> on_submit(coordinator_pointer self,
                                                messages::submit_demand& x) {
  auto& st = self->state;
  if (auto invalid = messages::validate(st.settings); !invalid.empty())
    return messages::make_error(error_code::invalid_config,
                                "the channel settings are invalid: " + invalid);
  if (auto refused = validate_demand(x.raw_input))
    return messages::make_error(refused->code, std::move(refused->message));
  if (!x.demand_id.empty() && taken(st, x.demand_id))
    return messages::make_error(error_code::already_exists,
                                "demand " + x.demand_id + " already exists");
  if (x.demand_id.empty())
    x.demand_id = make_demand_id(st);
  auto channel_id = top_channel_id(x.demand_id);
  if (uses_llm(st)) {
    asking a;
    a.promise = self->make_response_promise<messages::demand_receipt>();
    a.channel_id = channel_id;
    auto prompt =
        understanding_prompt(x.raw_input, capability_vocabulary(profiles(st)));
    a.request = std::move(x);
    auto promise = a.promise;
    ask(self, prompt, std::move(a));
    return promise;
  }
  auto understanding = understand_demand(st, x.raw_input);
  messages::candidate_selection selection;
  if (auto refused =
          pick_candidates(st, understanding, profiles(st), channel_id, selection))
    return messages::make_error(refused->code, std::move(refused->message));
  auto promise = self->make_response_promise<messages::demand_receipt>();
  answer_receipt(self, promise,
                 open_demand(self, std::move(x), channel_id, std::move(understanding),
                             std::move(selection)));
  return promise;
}

caf::result<messages::demand_view> on_get(coordinator_pointer self,
                                          const std::string& demand_id) {
  auto& st = self->state;
  auto i = st.demands.find(demand_id);
  if (i != st.demands.end())
    return i->second;
  if (!st.store)
    return messages::make_error(error_code::demand_not_found, "no demand " + demand_id);
  // Not here: an earlier process's (ended before this one started), or none.
  auto promise = self->make_response_promise<messages::demand_view>();
  self->request(st.store, store_limit, messages::get_atom::value,
                messages::demand_atom::value, demand_id)
      .then([promise](
                messages::demand_view& x) mutable { promise.deliver(std::move(x)); },
            [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
  return promise;
}

coordinator_actor::behavior_type
coordinator_behavior(coordinator_pointer self, messages::channel_settings settings,
                     std::uint64_t seed, coordinator_peers with,
                     llm::prompt_model model) {
  auto& st = self->state;
  st.model = std::move(model);
  st.settings = std::move(settings);
  st.seed = seed;
  st.with = std::move(with);
  st.clock.emplace(self->system());
  self->set_down_handler(
      [self](const caf::down_msg& x) { forget_member(self, x.source); });
  return {
      [self](messages::register_member& x) { return on_register(self, x); },
      [self](messages::submit_demand& x) { return on_submit(self, x); },
      [self](caf::get_atom, const std::string& demand_id) {
        return on_get(self, demand_id);
      },
      [self](messages::resume_atom,
             const std::vector<messages::channel_event>& events) {
        return on_resume(self, events);
      },
      [self](const messages::channel_event& x) { on_channel_event(self, x); },
      [self](const messages::llm_response& x) { on_model_answer(self, x); },
      [self](caf::put_atom, store_actor& store) {
        self->state.store = std::move(store);
      },
  };
}

} // namespace

coordinator_actor spawn_coordinator(caf::actor_system& sys,
                                    messages::channel_settings settings,
                                    std::uint64_t seed, coordinator_peers with,
                                    llm::prompt_model model) {
  return sys.spawn(coordinator_behavior, std::move(settings), seed, std::move(with),
                   std::move(model));
}

} // namespace parley::actors::coordinator
