#include "runtime/scenario_runner.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <fstream>
#include <memory>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
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
#include "actors/auction/actor.hpp"
#include "actors/audit/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/bus/actor.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/room/actor.hpp"
#include "messages/json.hpp"
#include "runtime/event_printer.hpp"
#include "runtime/node.hpp"

namespace parley::runtime {

namespace {

/// How long the driver waits for an agent to open a negotiation.
constexpr auto start_timeout = std::chrono::seconds(30);

/// One scheduled step of the scenario: a negotiation start or an injection.
struct step {
  enum kind_t : std::uint8_t { start, inject, ballot, vote, auction, bid };
  std::int64_t at_ms = 0;
  kind_t kind = start;
  std::size_t index = 0;
  /// For votes and bids: the index inside the ballot or auction.
  std::size_t sub = 0;
};

/// Everything the driver needs; built before the actor system runs.
struct cast {
  scenario plan;
  std::map<std::string, caf::actor> agents;
  std::map<std::string, caf::actor> rooms;
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
  /// Started negotiations not yet ended (or ended before their start was
  /// confirmed to the driver).
  std::unordered_set<std::string> open;
  std::unordered_set<std::string> ended_early;
  std::uint64_t injected = 0;
  /// Events received so far, and how many had arrived when the last barrier
  /// round began (no value: no round completed yet).
  std::uint64_t events_seen = 0;
  std::optional<std::uint64_t> flushed_at;
  std::uint64_t barrier_round = 0;
  std::size_t barriers_pending = 0;
  messages::run_summary summary;
  bool finished = false;
  /// Ballots and auctions spawned, by scenario index; how many still run.
  std::vector<caf::actor> ballots;
  std::vector<caf::actor> auctions;
  std::size_t consensus_running = 0;
};

using driver_actor = caf::stateful_actor<driver_state>;

template <class Event> void print(driver_actor* self, const Event& x) {
  auto& st = self->state;
  ++st.events_seen;
  if (st.world.format == output_format::json_lines)
    *st.world.out << event_json(x, st.start_ms).dump() << '\n';
  else
    *st.world.out << timeline_line(x, st.start_ms) << '\n';
}

/// Sends a barrier through every room (and its active negotiation) and the
/// bus: once all come back, every event caused by what the driver sent before
/// has arrived, including the answers to fire-and-forget injections.
void start_barrier_round(driver_actor* self) {
  auto& st = self->state;
  ++st.barrier_round;
  st.barriers_pending = st.world.rooms.size() + 1;
  auto origin = caf::actor_cast<caf::actor>(self);
  for (const auto& entry : st.world.rooms)
    self->send(entry.second, messages::barrier{st.barrier_round, origin});
  // Straight through the bus too: behind what ended ballots and auctions sent.
  self->send(st.world.bus, messages::barrier{st.barrier_round, origin});
}

void finish_if_done(driver_actor* self) {
  auto& st = self->state;
  if (st.finished || st.next_step < st.steps.size() || !st.held_starts.empty() ||
      st.starts_in_flight > 0 || !st.open.empty() || st.barriers_pending > 0 ||
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
              st.open.insert(record.id);
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
  case step::start:
    if (st.starts_in_flight >= st.world.start_window)
      st.held_starts.push_back(s.index);
    else
      launch_start(self, s.index);
    return;
  case step::inject:
    inject(self, plan.inject[s.index]);
    return;
  case step::ballot:
    open_ballot(self, s.index);
    return;
  case step::vote: {
    const auto& b = plan.ballots[s.index];
    const auto& v = b.votes[s.sub];
    self->send(st.world.agents.at(v.voter),
               messages::cast_vote{st.ballots[s.index],
                                   messages::vote{b.id, v.voter, v.option}});
    return;
  }
  case step::auction:
    open_auction(self, s.index);
    return;
  case step::bid: {
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

/// Runs every step that is due, then schedules the next one: one pending
/// timer at a time, however long the scenario.
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
    st.steps.push_back(step{plan.negotiations[i].at_ms, step::start, i, 0});
  for (std::size_t i = 0; i < plan.inject.size(); ++i)
    st.steps.push_back(step{plan.inject[i].at_ms, step::inject, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    st.steps.push_back(step{plan.ballots[i].at_ms, step::ballot, i, 0});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    st.steps.push_back(step{plan.auctions[i].at_ms, step::auction, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    for (std::size_t k = 0; k < plan.ballots[i].votes.size(); ++k)
      st.steps.push_back(step{plan.ballots[i].votes[k].at_ms, step::vote, i, k});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    for (std::size_t k = 0; k < plan.auctions[i].bids.size(); ++k)
      st.steps.push_back(step{plan.auctions[i].bids[k].at_ms, step::bid, i, k});
  st.ballots.resize(plan.ballots.size());
  st.auctions.resize(plan.auctions.size());
  self->set_down_handler([self](const caf::down_msg&) {
    --self->state.consensus_running;
    finish_if_done(self);
  });
  // Same time: negotiations, injections, ballots and auctions opening, then
  // votes and bids, each in file order.
  std::stable_sort(st.steps.begin(), st.steps.end(),
                   [](const step& x, const step& y) { return x.at_ms < y.at_ms; });
  self->send(st.world.bus, messages::subscribe_atom::value, std::string{"*"},
             caf::actor_cast<caf::actor>(self));
  self->send(self, messages::step_atom::value);
  return {
      [self](messages::step_atom) { run_due_steps(self); },
      [self](const messages::barrier& x) {
        auto& st = self->state;
        if (x.id == st.barrier_round && --st.barriers_pending == 0)
          finish_if_done(self);
      },
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        print(self, x);
        using kind = messages::negotiation_event_kind;
        switch (x.kind) {
        case kind::started:
          ++st.summary.negotiations;
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
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        print(self, x);
        if (x.severity == messages::severity::error)
          ++st.summary.errors;
        else
          ++st.summary.warnings;
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
  caf::anon_send_exit(world.bus, caf::exit_reason::user_shutdown);
}

} // namespace

messages::run_summary run_scenario(const scenario& plan,
                                   const config::settings& settings,
                                   const run_options& options, std::ostream& out) {
  caf::actor_system_config cfg;
  configure(cfg,
            system_options{options.simulated_time, settings.runtime.scheduler_threads});
  caf::actor_system sys{cfg};
  caf::scoped_actor listener{sys};
  cast world;
  world.plan = plan;
  world.bus = actors::bus::spawn_bus(sys);
  world.listener = caf::actor_cast<caf::actor>(listener);
  world.format = options.format;
  world.out = &out;
  world.start_window = static_cast<std::size_t>(settings.runtime.start_window);
  for (const auto& a : plan.agents)
    world.agents.emplace(a.id, actors::agent::spawn_agent(
                                   sys, messages::agent_spec{a.id, a.profile, a.brain},
                                   settings.negotiation.max_rounds, world.bus));
  for (const auto& r : plan.rooms) {
    messages::room_spec spec;
    spec.id = r.id;
    for (const auto& p : r.participants)
      spec.participants.emplace(p, world.agents.at(p));
    spec.settings = settings.negotiation;
    spec.history_limit = settings.room.history_limit;
    spec.seed = options.seed;
    spec.bus = world.bus;
    world.rooms.emplace(r.id, actors::room::spawn_room(sys, std::move(spec)));
  }
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
