#include "runtime/scenario_runner.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <iterator>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/agent/actor.hpp"
#include "actors/agent/llm_agent.hpp"
#include "actors/auction/actor.hpp"
#include "actors/audit/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/bus/actor.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/http/llm_client.hpp"
#include "actors/room/actor.hpp"
#include "messages/json.hpp"
#include "runtime/event_printer.hpp"
#include "runtime/cluster.hpp"
#include "runtime/node.hpp"

namespace parley::runtime {

namespace {

/// The driver's start requests go to local agents, whose own request to the
/// room is bounded, so they need no timer of their own: a timer per request
/// would wake CAF's clock thread once more per negotiation.
constexpr auto start_timeout = caf::infinite;

/// What a scheduled step does.
enum class step_kind { start, inject, transcript, ballot, vote, auction, bid };

/// One scheduled step of the scenario: a negotiation start, an injection or a
/// transcript line.
struct step {
  std::int64_t at_ms = 0;
  step_kind kind = step_kind::start;
  std::size_t index = 0;
  /// For votes and bids: the index inside the ballot or auction.
  std::size_t sub = 0;
};

/// Everything the driver needs; built before the actor system runs.
struct cast {
  scenario plan;
  std::map<std::string, caf::actor> agents;
  std::map<std::string, caf::actor> rooms;
  /// Agents with an LLM brain (a barrier round waits for them to be idle)
  /// and the providers' HTTP clients.
  std::vector<caf::actor> llm_agents;
  std::vector<caf::actor> llm_clients;
  caf::actor bus;
  caf::actor listener;
  output_format format = output_format::json_lines;
  std::ostream* out = nullptr;
  std::size_t start_window = 256;
};

struct driver_state {
  static inline const char* name = "parley.scenario";
  cast world;
  std::optional<actors::wall_clock> clock;
  std::int64_t start_ms = 0;
  std::vector<step> steps;
  std::size_t next_step = 0;
  /// Starts due but held back by the start window.
  std::deque<std::size_t> held_starts;
  std::size_t starts_in_flight = 0;
  /// Started negotiations not yet ended, with their rooms (or ended before
  /// their start was confirmed to the driver).
  std::unordered_map<std::string, std::string> open;
  std::unordered_set<std::string> ended_early;
  std::uint64_t injected = 0;
  /// Events received so far, and how many had arrived when the last barrier
  /// round began (no value: no round completed yet).
  std::uint64_t events_seen = 0;
  std::optional<std::uint64_t> flushed_at;
  /// Barriers on their way, by id, with the room each went through.
  std::unordered_map<std::uint64_t, std::string> barriers_pending;
  std::uint64_t barriers_sent = 0;
  /// Rooms lost with their node (E021): no barrier comes back through them.
  std::unordered_set<std::string> lost_rooms;
  /// The round's second phase: the rooms' barriers are back and the LLM
  /// agents' are out (sent after the rooms', so that they queue behind
  /// whatever the rooms passed to those agents).
  bool agent_phase = false;
  /// Ballots and auctions spawned, by scenario index; how many still run.
  std::vector<caf::actor> ballots;
  std::vector<caf::actor> auctions;
  std::size_t consensus_running = 0;
  messages::run_summary summary;
  bool finished = false;
};

using driver_actor = caf::stateful_actor<driver_state>;

template <class Event> void print(driver_actor* self, const Event& x) {
  auto& st = self->state;
  ++st.events_seen;
  if (st.world.format == output_format::json_lines)
    *st.world.out << event_json(x, st.start_ms).dump() << '\n';
  else
    *st.world.out << timeline_line(x, st.start_ms) << '\n';
  // One line at a time, so that a pipe or a file being followed sees each event
  // as it happens.
  st.world.out->flush();
}

/// Sends a barrier through every room (and its active negotiation) and the
/// bus: once all come back, every event caused by what the driver sent before
/// has arrived, including the answers to fire-and-forget injections.
void start_barrier_round(driver_actor* self) {
  auto& st = self->state;
  st.agent_phase = false;
  auto origin = caf::actor_cast<caf::actor>(self);
  // Straight through the bus too: behind what ended ballots and auctions sent.
  auto through_bus = ++st.barriers_sent;
  st.barriers_pending.emplace(through_bus, std::string{});
  self->send(st.world.bus, messages::barrier{through_bus, origin});
  for (const auto& entry : st.world.rooms) {
    if (st.lost_rooms.count(entry.first) > 0)
      continue;
    auto id = ++st.barriers_sent;
    st.barriers_pending.emplace(id, entry.first);
    self->send(entry.second, messages::barrier{id, origin});
  }
}

/// A barrier came back (or its room was lost). When the rooms' are all back,
/// the round's second phase goes through the LLM agents (sent after the
/// rooms', so they queue behind whatever the rooms passed to those agents).
void finish_if_done(driver_actor* self);

void on_barrier_back(driver_actor* self) {
  auto& st = self->state;
  if (!st.barriers_pending.empty())
    return;
  if (!st.agent_phase && !st.world.llm_agents.empty()) {
    st.agent_phase = true;
    auto origin = caf::actor_cast<caf::actor>(self);
    for (const auto& agent : st.world.llm_agents) {
      auto id = ++st.barriers_sent;
      st.barriers_pending.emplace(id, std::string{});
      self->send(agent, messages::barrier{id, origin});
    }
    return;
  }
  finish_if_done(self);
}

void finish_if_done(driver_actor* self) {
  auto& st = self->state;
  if (st.finished || st.next_step < st.steps.size() || !st.held_starts.empty() ||
      st.starts_in_flight > 0 || !st.open.empty() || !st.barriers_pending.empty() ||
      st.consensus_running > 0)
    return;
  if (st.flushed_at != st.events_seen) {
    st.flushed_at = st.events_seen;
    start_barrier_round(self);
    return;
  }
  st.finished = true;
  if (st.world.format == output_format::json_lines)
    *st.world.out << nlohmann::json(st.summary).dump() << '\n';
  else
    *st.world.out << timeline_summary(st.summary) << '\n';
  st.world.out->flush();
  self->send(st.world.listener, messages::done_atom::value, st.summary);
  self->quit();
}

void on_start_settled(driver_actor* self);

void launch_start(driver_actor* self, std::size_t index) {
  auto& st = self->state;
  const auto& item = st.world.plan.negotiations[index];
  ++st.starts_in_flight;
  self->request(st.world.agents.at(item.initiator), start_timeout,
                messages::initiate_negotiation{st.world.rooms.at(item.room),
                                               item.responder, item.proposal,
                                               item.intent_id})
      .then(
          [self](const messages::negotiation_record& record) {
            auto& st = self->state;
            if (st.ended_early.erase(record.id) == 0)
              st.open.emplace(record.id, record.room_id);
            on_start_settled(self);
          },
          [self](const caf::error&) {
            // A refused start is published on the bus and counted from there.
            on_start_settled(self);
          });
}

/// A start response (or failure) came back: free its window slot.
void on_start_settled(driver_actor* self) {
  auto& st = self->state;
  --st.starts_in_flight;
  if (!st.held_starts.empty()) {
    auto index = st.held_starts.front();
    st.held_starts.pop_front();
    launch_start(self, index);
  }
  finish_if_done(self);
}

template <class AgentMessage>
AgentMessage make_injected(const scenario_inject& x, std::string message_id) {
  AgentMessage msg;
  msg.message_id = std::move(message_id);
  msg.negotiation_id = x.negotiation;
  msg.from_agent = x.from;
  return msg;
}

void inject(driver_actor* self, const scenario_inject& x) {
  auto& st = self->state;
  auto id =
      x.message_id.empty() ? "inject:" + std::to_string(++st.injected) : x.message_id;
  const auto& room = st.world.rooms.at(x.room);
  auto proposal = x.proposal ? *x.proposal : messages::proposal{};
  switch (x.type) {
  case inject_type::agent_proposal: {
    auto msg = make_injected<messages::agent_proposal>(x, std::move(id));
    msg.proposal = std::move(proposal);
    self->send(room, std::move(msg));
    break;
  }
  case inject_type::agent_counter: {
    auto msg = make_injected<messages::agent_counter>(x, std::move(id));
    msg.proposal = std::move(proposal);
    msg.reason = x.reason;
    self->send(room, std::move(msg));
    break;
  }
  case inject_type::agent_accept:
    self->send(room, make_injected<messages::agent_accept>(x, std::move(id)));
    break;
  case inject_type::agent_reject: {
    auto msg = make_injected<messages::agent_reject>(x, std::move(id));
    msg.reason = x.reason;
    self->send(room, std::move(msg));
    break;
  }
  }
}

/// Runs every step that is due, then schedules the next one: one pending
/// timer at a time, however long the scenario.
/// Every agent of the scenario whose id is listed or whose role is in `roles`.
std::vector<messages::participant> resolve_voters(const scenario& plan,
                                                  const scenario_ballot& b) {
  std::vector<messages::participant> xs;
  for (const auto& a : plan.agents) {
    auto listed = std::find(b.voters.begin(), b.voters.end(), a.id) != b.voters.end();
    auto by_role =
        std::find(b.roles.begin(), b.roles.end(), a.profile.role) != b.roles.end();
    if (listed || by_role)
      xs.push_back({a.id, a.profile.role});
  }
  return xs;
}

const std::string& role_of(const scenario& plan, const std::string& id) {
  for (const auto& a : plan.agents)
    if (a.id == id)
      return a.profile.role;
  static const std::string none;
  return none;
}

void open_ballot(driver_actor* self, std::size_t index) {
  auto& st = self->state;
  const auto& b = st.world.plan.ballots[index];
  messages::ballot_spec spec{
      b.id,        b.topic, b.options, b.strategy, resolve_voters(st.world.plan, b),
      b.window_ms, b.task};
  actors::ballot::peers with;
  with.bus = st.world.bus;
  for (const auto& v : spec.voters)
    with.invite.emplace(v.agent_id, st.world.agents.at(v.agent_id));
  auto h =
      actors::ballot::spawn_ballot(self->system(), std::move(spec), std::move(with));
  self->monitor(h);
  ++st.consensus_running;
  st.ballots[index] = h;
}

void open_auction(driver_actor* self, std::size_t index) {
  auto& st = self->state;
  const auto& a = st.world.plan.auctions[index];
  messages::auction_spec spec{a.id, a.task, {}, a.window_ms, a.base_duration_ms};
  actors::auction::peers with;
  with.bus = st.world.bus;
  for (const auto& id : a.invited) {
    spec.invited.push_back({id, role_of(st.world.plan, id)});
    with.invite.emplace(id, st.world.agents.at(id));
  }
  auto h =
      actors::auction::spawn_auction(self->system(), std::move(spec), std::move(with));
  self->monitor(h);
  ++st.consensus_running;
  st.auctions[index] = h;
}

void run_step(driver_actor* self, const step& s) {
  auto& st = self->state;
  const auto& plan = st.world.plan;
  switch (s.kind) {
  case step_kind::start:
    if (st.starts_in_flight >= st.world.start_window)
      st.held_starts.push_back(s.index);
    else
      launch_start(self, s.index);
    return;
  case step_kind::inject:
    inject(self, plan.inject[s.index]);
    return;
  case step_kind::transcript: {
    const auto& t = plan.transcripts[s.index];
    self->send(st.world.rooms.at(t.room),
               messages::transcript_entry{t.source, t.speaker, t.text});
    return;
  }
  case step_kind::ballot:
    open_ballot(self, s.index);
    return;
  case step_kind::vote: {
    const auto& b = plan.ballots[s.index];
    const auto& v = b.votes[s.sub];
    self->send(st.world.agents.at(v.voter),
               messages::cast_vote{st.ballots[s.index],
                                   messages::vote{b.id, v.voter, v.option}});
    return;
  }
  case step_kind::auction:
    open_auction(self, s.index);
    return;
  case step_kind::bid: {
    const auto& a = plan.auctions[s.index];
    const auto& x = a.bids[s.sub];
    self->send(st.world.agents.at(x.bidder),
               messages::place_bid{st.auctions[s.index],
                                   messages::bid{a.id, x.bidder, x.capability, x.load,
                                                 x.estimated_duration_ms}});
    return;
  }
  }
}

void run_due_steps(driver_actor* self) {
  auto& st = self->state;
  auto now = st.clock->now_ms();
  while (st.next_step < st.steps.size() &&
         st.start_ms + st.steps[st.next_step].at_ms <= now) {
    auto s = st.steps[st.next_step++];
    run_step(self, s);
  }
  if (st.next_step < st.steps.size())
    self->delayed_send(self,
                       st.clock->until(st.start_ms + st.steps[st.next_step].at_ms),
                       messages::step_atom::value);
  finish_if_done(self);
}

caf::behavior driver(driver_actor* self, cast world) {
  auto& st = self->state;
  st.world = std::move(world);
  st.clock.emplace(self->system());
  st.start_ms = st.clock->now_ms();
  const auto& plan = st.world.plan;
  for (std::size_t i = 0; i < plan.negotiations.size(); ++i)
    st.steps.push_back(step{plan.negotiations[i].at_ms, step_kind::start, i, 0});
  for (std::size_t i = 0; i < plan.inject.size(); ++i)
    st.steps.push_back(step{plan.inject[i].at_ms, step_kind::inject, i, 0});
  for (std::size_t i = 0; i < plan.transcripts.size(); ++i)
    st.steps.push_back(step{plan.transcripts[i].at_ms, step_kind::transcript, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    st.steps.push_back(step{plan.ballots[i].at_ms, step_kind::ballot, i, 0});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    st.steps.push_back(step{plan.auctions[i].at_ms, step_kind::auction, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    for (std::size_t k = 0; k < plan.ballots[i].votes.size(); ++k)
      st.steps.push_back(step{plan.ballots[i].votes[k].at_ms, step_kind::vote, i, k});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    for (std::size_t k = 0; k < plan.auctions[i].bids.size(); ++k)
      st.steps.push_back(step{plan.auctions[i].bids[k].at_ms, step_kind::bid, i, k});
  st.ballots.resize(plan.ballots.size());
  st.auctions.resize(plan.auctions.size());
  self->set_down_handler([self](const caf::down_msg&) {
    --self->state.consensus_running;
    finish_if_done(self);
  });
  // Same time: negotiations, injections, transcripts, ballots and auctions
  // opening, then votes and bids, each in file order.
  std::stable_sort(st.steps.begin(), st.steps.end(),
                   [](const step& x, const step& y) { return x.at_ms < y.at_ms; });
  self->send(st.world.bus, messages::subscribe_atom::value, std::string{"*"},
             caf::actor_cast<caf::actor>(self));
  self->send(self, messages::step_atom::value);
  return {
      [self](messages::step_atom) { run_due_steps(self); },
      [self](const messages::barrier& x) {
        if (self->state.barriers_pending.erase(x.id) > 0)
          on_barrier_back(self);
      },
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        print(self, x);
        using kind = messages::negotiation_event_kind;
        switch (x.kind) {
        case kind::started:
          ++st.summary.negotiations;
          // Agents open negotiations too (an LLM agent after a trigger).
          if (st.ended_early.count(x.record.id) == 0)
            st.open.emplace(x.record.id, x.record.room_id);
          return;
        case kind::updated:
          return;
        case kind::agreed:
          ++st.summary.accepted;
          break;
        case kind::rejected:
          ++st.summary.rejected;
          break;
        case kind::expired:
          ++st.summary.expired;
          break;
        }
        if (st.open.erase(x.record.id) == 0)
          st.ended_early.insert(x.record.id);
        finish_if_done(self);
      },
      [self](const messages::ballot_event& x) {
        auto& st = self->state;
        print(self, x);
        if (x.kind == messages::ballot_event_kind::propose)
          ++st.summary.ballots;
        if (x.outcome && x.outcome->status == messages::ballot_status::approved)
          ++st.summary.ballots_approved;
        if (x.outcome && x.outcome->status == messages::ballot_status::rejected)
          ++st.summary.ballots_rejected;
      },
      [self](const messages::auction_event& x) {
        auto& st = self->state;
        print(self, x);
        if (!x.outcome)
          return;
        ++st.summary.auctions;
        if (x.outcome->status == messages::auction_status::awarded)
          ++st.summary.auctions_awarded;
      },
      [self](const messages::agent_event& x) {
        print(self, x);
        finish_if_done(self);
      },
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        print(self, x);
        if (x.severity == messages::severity::error)
          ++st.summary.errors;
        else
          ++st.summary.warnings;
        // Negotiations lost with their node (or room) end here.
        if (x.code == messages::error_code::node_unavailable) {
          st.lost_rooms.insert(x.room_id);
          auto waited = !st.barriers_pending.empty();
          for (auto i = st.barriers_pending.begin(); i != st.barriers_pending.end();)
            i = i->second == x.room_id ? st.barriers_pending.erase(i) : std::next(i);
          if (waited && st.barriers_pending.empty())
            on_barrier_back(self);
          if (!x.negotiation_id.empty()) {
            st.open.erase(x.negotiation_id);
          } else {
            for (auto i = st.open.begin(); i != st.open.end();)
              i = i->second == x.room_id ? st.open.erase(i) : std::next(i);
          }
        }
        finish_if_done(self);
      },
  };
}

/// Stops every long-lived actor, so that the actor system can shut down
/// (CAF-0.17.md pitfall 2: cycles and subscriptions keep actors alive).
void stop_all(const cast& world) {
  for (const auto& entry : world.agents)
    caf::anon_send_exit(entry.second, caf::exit_reason::user_shutdown);
  for (const auto& entry : world.rooms)
    caf::anon_send_exit(entry.second, caf::exit_reason::user_shutdown);
  for (const auto& client : world.llm_clients)
    caf::anon_send_exit(client, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(world.bus, caf::exit_reason::user_shutdown);
}

/// Spawns an LLM agent, sharing one HTTP client per provider and endpoint.
/// The key comes from ANTHROPIC_API_KEY (Anthropic) or OPENAI_API_KEY
/// (OpenAI-compatible servers, optional) and goes nowhere but the client.
caf::actor spawn_llm_agent(caf::actor_system& sys, messages::agent_spec spec,
                           const config::settings& settings, const caf::actor& bus,
                           std::map<std::string, caf::actor>& clients) {
  const auto& llm = settings.llm;
  const auto& brain = spec.brain;
  actors::http::llm_client_options o;
  actors::llm::from_string(brain.provider.empty() ? llm.provider : brain.provider,
                           o.provider);
  o.base_url = brain.endpoint.empty() ? llm.base_url : brain.endpoint;
  o.max_concurrent_calls = llm.max_concurrent_calls;
  o.call_timeout_ms = llm.call_timeout_ms;
  o.max_retries = llm.max_retries;
  o.breaker_threshold = llm.breaker_threshold;
  o.breaker_open_ms = llm.breaker_open_ms;
  auto key = actors::llm::to_string(o.provider) + " " + o.base_url;
  auto& client = clients[key];
  if (!client) {
    const char* api_key = std::getenv(
        o.provider == actors::llm::provider_kind::anthropic ? "ANTHROPIC_API_KEY"
                                                            : "OPENAI_API_KEY");
    o.api_key = api_key != nullptr ? api_key : "";
    client = actors::http::spawn_llm_client(sys, std::move(o));
  }
  actors::agent::llm_agent_options options;
  options.client = client;
  actors::llm::from_string(brain.provider.empty() ? llm.provider : brain.provider,
                           options.brain.provider);
  options.brain.model = brain.model.empty() ? llm.model : brain.model;
  options.brain.max_tokens = llm.max_tokens;
  options.brain.max_bad_turns = llm.max_bad_turns;
  options.batch_window_ms = llm.batch_window_ms;
  return actors::agent::spawn_llm_agent(sys, std::move(spec),
                                        settings.negotiation.max_rounds, bus, options);
}

} // namespace

messages::run_summary run_scenario(const scenario& plan,
                                   const config::settings& settings,
                                   const run_options& options, std::ostream& out) {
  if (options.simulated_time && plan.has_llm_agents())
    throw std::runtime_error("LLM agents call real HTTP endpoints: run this scenario "
                             "without --simulated-time");
  caf::actor_system_config cfg;
  configure(cfg,
            system_options{options.simulated_time, settings.runtime.scheduler_threads,
                           !options.remotes.empty(), settings.cluster});
  caf::actor_system sys{cfg};
  caf::scoped_actor listener{sys};
  cast world;
  world.plan = plan;
  world.bus = actors::bus::spawn_bus(sys);
  cluster nodes{sys, options.remotes, world.bus};
  world.listener = caf::actor_cast<caf::actor>(listener);
  world.format = options.format;
  world.out = &out;
  world.start_window = static_cast<std::size_t>(settings.runtime.start_window);
  std::map<std::string, caf::actor> clients; // by provider and endpoint
  std::set<std::string> llm_ids;
  for (const auto& a : plan.agents) {
    messages::agent_spec spec{a.id, a.profile, a.brain};
    if (a.brain.kind != messages::brain_kind::llm) {
      world.agents.emplace(
          a.id, actors::agent::spawn_agent(sys, std::move(spec),
                                           settings.negotiation.max_rounds, world.bus));
      continue;
    }
    llm_ids.insert(a.id);
    auto agent = spawn_llm_agent(sys, std::move(spec), settings, world.bus, clients);
    world.agents.emplace(a.id, agent);
    world.llm_agents.push_back(agent);
  }
  for (const auto& entry : clients)
    world.llm_clients.push_back(entry.second);
  std::vector<messages::room_spec> specs;
  for (const auto& r : plan.rooms) {
    messages::room_spec spec;
    spec.id = r.id;
    for (const auto& p : r.participants) {
      spec.participants.emplace(p, world.agents.at(p));
      if (llm_ids.count(p) > 0)
        spec.llm_participants.push_back(p);
    }
    spec.settings = settings.negotiation;
    spec.history_limit = settings.room.history_limit;
    spec.seed = options.seed;
    spec.bus = world.bus;
    specs.push_back(std::move(spec));
  }
  auto rooms = nodes.spawn_rooms(std::move(specs));
  for (std::size_t i = 0; i < rooms.size(); ++i)
    world.rooms.emplace(plan.rooms[i].id, std::move(rooms[i]));
  caf::actor audit;
  if (!settings.audit.path.empty()) {
    auto file = std::make_shared<std::ofstream>(settings.audit.path, std::ios::app);
    if (!*file)
      throw std::runtime_error("cannot write the audit log " + settings.audit.path);
    audit = actors::audit::spawn_audit_log(sys, world.bus, std::move(file));
  }
  auto stop = world;
  stop.plan = scenario{};
  sys.spawn(driver, std::move(world));
  messages::run_summary result;
  auto on_done = [&](messages::done_atom, const messages::run_summary& x) {
    result = x;
  };
  if (options.simulated_time) {
    auto& sched = dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler());
    bool done = false;
    while (!done) {
      sched.run();
      listener->receive(
          [&](messages::done_atom a, const messages::run_summary& x) {
            on_done(a, x);
            done = true;
          },
          caf::after(std::chrono::seconds(0)) >> [] {});
      if (!done && !sched.trigger_timeout())
        break; // nothing can happen any more
    }
    if (audit)
      caf::anon_send(audit, messages::done_atom::value);
    stop_all(stop);
    sched.run();
    if (!done)
      throw std::runtime_error("the scenario stalled: nothing left to run, yet not "
                               "every negotiation ended");
  } else {
    listener->receive(on_done);
    if (audit)
      caf::anon_send(audit, messages::done_atom::value);
    stop_all(stop);
  }
  return result;
}

} // namespace parley::runtime
