#include "runtime/scenario_runner.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/auction/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/common/wall_clock.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/run_tracker.hpp"
#include "runtime/start_window.hpp"
#include "runtime/world.hpp"

namespace parley::runtime {

namespace {

/// The driver: a bus subscriber that also runs its own steps.
using driver_actor = actors::subscriber_actor::extend<caf::reacts_to<messages::step_atom>>;

/// Where the driver reports the summary when the run is over.
using listener_actor =
    caf::typed_actor<caf::reacts_to<messages::done_atom, messages::run_summary>>;

/// What a scheduled step does.
enum class step_kind { start, inject, transcript, ballot, vote, auction, bid };

/// One scheduled step of the scenario.
struct step {
  std::int64_t at_ms = 0;
  step_kind kind = step_kind::start;
  std::size_t index = 0;
  /// For votes and bids: the index inside the ballot or auction.
  std::size_t sub = 0;
};

/// Everything the driver needs; built before the actor system runs.
struct cast {
  const scenario* plan = nullptr;
  /// Opens the ballots and auctions (thread-safe).
  world* builder = nullptr;
  messages::event_sink events;
  std::map<std::string, actors::agent_actor> agents;
  std::map<std::string, actors::room_actor> rooms;
  std::vector<actors::agent_actor> llm_agents;
  listener_actor listener;
  output_format format = output_format::json_lines;
  std::ostream* out = nullptr;
  std::size_t start_window = 64;
};

struct driver_state {
  static inline const char* name = "parley.scenario";
  cast world;
  std::optional<actors::wall_clock> clock;
  std::optional<event_printer> printer;
  std::int64_t start_ms = 0;
  std::vector<step> steps;
  std::size_t next_step = 0;
  /// Starts due but held back by the window.
  std::deque<std::size_t> held_starts;
  std::optional<runtime::start_window> window;
  run_tracker tracker;
  std::uint64_t injected = 0;
  std::uint64_t barriers_sent = 0;
  /// Events seen so far, and how many had been seen when the last round of
  /// barriers through the LLM agents began (none: no round yet).
  std::uint64_t events_seen = 0;
  std::optional<std::uint64_t> flushed_at;
  std::vector<actors::ballot_actor> ballots;
  std::vector<actors::auction_actor> auctions;
  messages::run_summary summary;
  bool finished = false;
};

using driver_pointer = driver_actor::stateful_pointer<driver_state>;

void launch_start(driver_pointer self, std::size_t index);

/// Frees one window slot per start an event answered.
void settle_starts(driver_pointer self, std::size_t answered) {
  auto& st = self->state;
  for (; answered > 0; --answered) {
    st.window->settled();
    if (!st.held_starts.empty()) {
      auto index = st.held_starts.front();
      st.held_starts.pop_front();
      launch_start(self, index);
    }
  }
}

/// Ends the run once every step ran and nothing is open. LLM agents may
/// still be working (a transcript batch, a trigger): a round of barriers
/// through them, repeated until one passes without a new event, waits for
/// them to be idle.
void finish_if_done(driver_pointer self) {
  auto& st = self->state;
  if (st.finished || st.next_step < st.steps.size() || !st.held_starts.empty() ||
      !st.tracker.idle())
    return;
  if (!st.world.llm_agents.empty() && st.flushed_at != st.events_seen) {
    st.flushed_at = st.events_seen;
    auto origin = caf::actor_cast<actors::subscriber_actor>(self);
    for (const auto& agent : st.world.llm_agents) {
      auto id = ++st.barriers_sent;
      st.tracker.barrier_sent(id, {});
      self->send(agent, messages::barrier{id, origin});
    }
    return;
  }
  st.finished = true;
  st.printer->print(st.summary);
  self->send(st.world.listener, messages::done_atom::value, st.summary);
  self->quit();
}

void launch_start(driver_pointer self, std::size_t index) {
  auto& st = self->state;
  const auto& item = st.world.plan->negotiations[index];
  auto ticket = "scenario:start:" + std::to_string(index + 1);
  st.tracker.start_sent(item.room, item.initiator, ticket);
  st.window->launched();
  self->send(st.world.agents.at(item.initiator),
             messages::initiate_negotiation{st.world.rooms.at(item.room), item.responder,
                                            item.proposal, item.intent_id,
                                            std::move(ticket)});
}

template <class AgentMessage>
AgentMessage make_injected(const scenario_inject& x, std::string message_id) {
  AgentMessage msg;
  msg.message_id = std::move(message_id);
  msg.negotiation_id = x.negotiation;
  msg.from_agent = x.from;
  return msg;
}

/// Sends a barrier through `room` behind what the driver sent it: the run is
/// not over before it comes back (after an injection: its outcome, an
/// event; after a transcript line: the line is with the room's agents).
void barrier_through(driver_pointer self, const std::string& room) {
  auto& st = self->state;
  auto id = ++st.barriers_sent;
  st.tracker.barrier_sent(id, room);
  self->send(st.world.rooms.at(room),
             messages::barrier{id, caf::actor_cast<actors::subscriber_actor>(self)});
}

/// Delivers an injection to its room, as if `from` had sent it.
void inject(driver_pointer self, const scenario_inject& x) {
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
  barrier_through(self, x.room);
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

void open_ballot(driver_pointer self, std::size_t index) {
  auto& st = self->state;
  const auto& b = st.world.plan->ballots[index];
  messages::ballot_spec spec{
      b.id,        b.topic, b.options, b.strategy, resolve_voters(*st.world.plan, b),
      b.window_ms, b.task};
  actors::ballot::peers with;
  with.events = st.world.events;
  for (const auto& v : spec.voters)
    with.invite.emplace(v.agent_id, st.world.agents.at(v.agent_id));
  st.tracker.ballot_opened(b.id);
  st.ballots[index] = st.world.builder->open_ballot(std::move(spec), std::move(with));
}

void open_auction(driver_pointer self, std::size_t index) {
  auto& st = self->state;
  const auto& a = st.world.plan->auctions[index];
  messages::auction_spec spec{a.id, a.task, {}, a.window_ms, a.base_duration_ms};
  actors::auction::peers with;
  with.events = st.world.events;
  for (const auto& id : a.invited) {
    spec.invited.push_back({id, role_of(*st.world.plan, id)});
    with.invite.emplace(id, st.world.agents.at(id));
  }
  st.tracker.auction_opened(a.id);
  st.auctions[index] = st.world.builder->open_auction(std::move(spec), std::move(with));
}

void run_step(driver_pointer self, const step& s) {
  auto& st = self->state;
  const auto& plan = *st.world.plan;
  switch (s.kind) {
  case step_kind::start:
    if (st.window->has_room())
      launch_start(self, s.index);
    else
      st.held_starts.push_back(s.index);
    return;
  case step_kind::inject:
    inject(self, plan.inject[s.index]);
    return;
  case step_kind::transcript: {
    const auto& t = plan.transcripts[s.index];
    self->send(st.world.rooms.at(t.room),
               messages::transcript_entry{t.source, t.speaker, t.text});
    barrier_through(self, t.room);
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

/// Runs every step that is due, then schedules the next one: one pending
/// timer at a time, however long the scenario.
void run_due_steps(driver_pointer self) {
  auto& st = self->state;
  auto now = st.clock->now_ms();
  auto due = [&](const step& s) { return messages::saturating_add(st.start_ms, s.at_ms); };
  while (st.next_step < st.steps.size() && due(st.steps[st.next_step]) <= now) {
    auto s = st.steps[st.next_step++];
    run_step(self, s);
  }
  if (st.next_step < st.steps.size())
    self->delayed_send(self, st.clock->until(due(st.steps[st.next_step])),
                       messages::step_atom::value);
  finish_if_done(self);
}

std::vector<step> schedule(const scenario& plan) {
  std::vector<step> steps;
  for (std::size_t i = 0; i < plan.negotiations.size(); ++i)
    steps.push_back(step{plan.negotiations[i].at_ms, step_kind::start, i, 0});
  for (std::size_t i = 0; i < plan.inject.size(); ++i)
    steps.push_back(step{plan.inject[i].at_ms, step_kind::inject, i, 0});
  for (std::size_t i = 0; i < plan.transcripts.size(); ++i)
    steps.push_back(step{plan.transcripts[i].at_ms, step_kind::transcript, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    steps.push_back(step{plan.ballots[i].at_ms, step_kind::ballot, i, 0});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    steps.push_back(step{plan.auctions[i].at_ms, step_kind::auction, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    for (std::size_t k = 0; k < plan.ballots[i].votes.size(); ++k)
      steps.push_back(step{plan.ballots[i].votes[k].at_ms, step_kind::vote, i, k});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    for (std::size_t k = 0; k < plan.auctions[i].bids.size(); ++k)
      steps.push_back(step{plan.auctions[i].bids[k].at_ms, step_kind::bid, i, k});
  // Same time: negotiations, injections, transcripts, ballots and auctions
  // opening, then votes and bids, each in file order.
  std::stable_sort(steps.begin(), steps.end(),
                   [](const step& x, const step& y) { return x.at_ms < y.at_ms; });
  return steps;
}

/// Counts an event in the summary.
void count(messages::run_summary& s, const messages::negotiation_event& x) {
  using kind = messages::negotiation_event_kind;
  switch (x.kind) {
  case kind::started:
    ++s.negotiations;
    return;
  case kind::updated:
    return;
  case kind::agreed:
    ++s.accepted;
    return;
  case kind::rejected:
    ++s.rejected;
    return;
  case kind::expired:
    ++s.expired;
    return;
  }
}

/// Prints an event (and counts it toward the rounds of LLM barriers).
template <class Event> void on_event(driver_pointer self, const Event& x) {
  auto& st = self->state;
  ++st.events_seen;
  st.printer->print(x);
}

/// The driver starts on its first `step` (it is spawned lazily, subscribed,
/// and only then is its cast built: rooms placed on nodes publish what their
/// bus wanted when they were placed).
driver_actor::behavior_type driver(driver_pointer self, cast* world) {
  auto& st = self->state;
  st.world = std::move(*world);
  st.clock.emplace(self->system());
  st.start_ms = st.clock->now_ms();
  st.printer.emplace(st.world.format, *st.world.out, st.start_ms);
  st.window.emplace(st.world.start_window);
  st.steps = schedule(*st.world.plan);
  st.ballots.resize(st.world.plan->ballots.size());
  st.auctions.resize(st.world.plan->auctions.size());
  return {
      [self](messages::step_atom) { run_due_steps(self); },
      [self](const messages::barrier& x) {
        self->state.tracker.barrier_back(x.id);
        finish_if_done(self);
      },
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        on_event(self, x);
        count(st.summary, x);
        settle_starts(self, st.tracker.on(x));
        finish_if_done(self);
      },
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        on_event(self, x);
        if (x.severity == messages::severity::error)
          ++st.summary.errors;
        else
          ++st.summary.warnings;
        settle_starts(self, st.tracker.on(x));
        finish_if_done(self);
      },
      [self](const messages::ballot_event& x) {
        auto& st = self->state;
        on_event(self, x);
        if (x.kind == messages::ballot_event_kind::propose)
          ++st.summary.ballots;
        if (x.outcome && x.outcome->status == messages::ballot_status::approved)
          ++st.summary.ballots_approved;
        if (x.outcome && x.outcome->status == messages::ballot_status::rejected)
          ++st.summary.ballots_rejected;
        st.tracker.on(x);
        finish_if_done(self);
      },
      [self](const messages::auction_event& x) {
        auto& st = self->state;
        on_event(self, x);
        if (x.outcome) {
          ++st.summary.auctions;
          if (x.outcome->status == messages::auction_status::awarded)
            ++st.summary.auctions_awarded;
        }
        st.tracker.on(x);
        finish_if_done(self);
      },
      [self](const messages::agent_event& x) {
        on_event(self, x);
        finish_if_done(self);
      },
      [self](const messages::channel_event& x) {
        on_event(self, x);
        self->state.tracker.on(x);
        finish_if_done(self);
      },
  };
}

/// Waits for the summary: in real time on this thread; in simulated time by
/// running the test coordinator until the run is over, or nothing can happen
/// any more (then none).
std::optional<messages::run_summary>
await_summary(caf::actor_system& sys, caf::scoped_actor& listener, bool simulated) {
  messages::run_summary result;
  if (!simulated) {
    listener->receive([&](messages::done_atom, const messages::run_summary& x) {
      result = x;
    });
    return result;
  }
  auto& sched = dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler());
  for (;;) {
    sched.run();
    auto done = false;
    listener->receive(
        [&](messages::done_atom, const messages::run_summary& x) {
          result = x;
          done = true;
        },
        caf::after(std::chrono::seconds(0)) >> [] {});
    if (done)
      return result;
    if (!sched.trigger_timeout())
      return std::nullopt;
  }
}

/// How long the store may take to commit what is left when the run ends.
constexpr auto store_flush_limit = std::chrono::seconds{60};

/// Stops the world when the run is over, however it ends; in simulated time
/// the actors only stop when the coordinator runs them.
class stop_guard {
public:
  stop_guard(world& w, bool simulated) : w_(w), simulated_(simulated) {}

  ~stop_guard() {
    w_.stop();
    if (simulated_)
      dynamic_cast<caf::scheduler::test_coordinator&>(w_.system().scheduler()).run();
  }

  stop_guard(const stop_guard&) = delete;
  stop_guard& operator=(const stop_guard&) = delete;

private:
  world& w_;
  bool simulated_;
};

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
  world w{sys, settings, options.remotes};
  stop_guard stop{w, options.simulated_time};
  if (!options.store.empty())
    w.add_store(options.store);
  cast c;
  auto driving = sys.spawn<caf::lazy_init>(driver, &c);
  w.events().subscribe(messages::topic_set::all(), driving);
  c.plan = &plan;
  c.builder = &w;
  c.events = w.events();
  c.listener = caf::actor_cast<listener_actor>(listener);
  c.format = options.format;
  c.out = &out;
  c.start_window =
      static_cast<std::size_t>(settings.runtime.start_window_for(!options.remotes.empty()));
  for (const auto& a : plan.agents)
    c.agents.emplace(a.id, w.add_agent(messages::agent_spec{a.id, a.profile, a.brain}));
  c.llm_agents = w.llm_agents();
  std::vector<messages::room_spec> specs;
  for (const auto& r : plan.rooms) {
    std::vector<messages::room_member> members;
    for (const auto& p : r.participants) {
      auto brain = std::find_if(plan.agents.begin(), plan.agents.end(),
                                [&](const auto& a) { return a.id == p; })
                       ->brain.kind;
      members.push_back({p, c.agents.at(p), brain == messages::brain_kind::llm});
    }
    specs.push_back(w.room_spec(r.id, std::move(members), options.seed));
  }
  auto rooms = w.add_rooms(std::move(specs));
  for (std::size_t i = 0; i < rooms.size(); ++i)
    c.rooms.emplace(plan.rooms[i].id, std::move(rooms[i]));
  caf::anon_send(driving, messages::step_atom::value);
  auto result = await_summary(sys, listener, options.simulated_time);
  if (!result)
    throw std::runtime_error("the scenario stalled: nothing left to run, yet not "
                             "everything it started has ended");
  // The driver heard the last event, so the bus passed it to the store too.
  if (auto why = w.flush_store(store_flush_limit); !why.empty())
    throw std::runtime_error("the store did not commit the run: " + why);
  return *result;
}

} // namespace parley::runtime
