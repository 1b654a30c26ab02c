#include "cli/scenario_runner.hpp"

#include <algorithm>
#include <chrono>
#include <deque>
#include <iostream>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/agent/valuation.hpp"
#include "actors/auction/actor.hpp"
#include "actors/ballot/actor.hpp"
#include "actors/common/wall_clock.hpp"
#include "cli/demand_outcome.hpp"
#include "cli/run_tracker.hpp"
#include "cli/start_window.hpp"
#include "messages/agent_messages.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"
#include "service/metrics_route.hpp"

namespace parley::cli {

namespace {

/// The driver: a bus subscriber that also runs its own steps.
using run_driver_actor =
    actors::subscriber_actor::extend<caf::reacts_to<messages::step_atom>>;

/// Where the driver reports the summary when the run is over.
using run_listener_actor =
    caf::typed_actor<caf::reacts_to<messages::done_atom, messages::run_summary>>;

/// What a scheduled step does.
enum class step_kind { start, inject, transcript, ballot, vote, auction, bid, demand };

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
  runtime::world* builder = nullptr;
  messages::event_sink events;
  std::map<std::string, actors::agent_actor> agents;
  std::map<std::string, actors::room_actor> rooms;
  std::vector<actors::agent_actor> llm_agents;
  /// Takes the demands (docs/protocols/channels.md).
  actors::coordinator_actor coordinator;
  run_listener_actor listener;
  output_format format = output_format::json_lines;
  std::ostream* out = nullptr;
  /// Where the driver leaves the expectations that did not hold, before it
  /// reports the summary.
  std::vector<std::string>* mismatches = nullptr;
  std::size_t start_window = 64;
};

struct run_driver_state {
  static inline const char* name = "parley.scenario";
  cast world;
  std::optional<actors::wall_clock> clock;
  std::optional<event_printer> printer;
  std::int64_t start_ms = 0;
  std::vector<step> steps;
  std::size_t next_step = 0;
  /// Starts due but held back by the window.
  std::deque<std::size_t> held_starts;
  std::optional<start_window> window;
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
  demand_summary demands;
  /// Per demand of the plan: its id once the coordinator took it up (empty
  /// before, or when refused), and why it was refused.
  std::vector<std::string> demand_ids;
  std::vector<std::string> refusals;
  /// The round each channel ended in, by channel id, from its terminal event.
  std::map<std::string, std::int32_t> ended;
  /// Channel events seen; the coordinator's views of the demands, and how
  /// many channel events had been seen when they were asked for.
  std::uint64_t channel_events = 0;
  std::vector<messages::demand_view> views;
  std::size_t views_pending = 0;
  std::optional<std::uint64_t> views_at;
  bool finished = false;
};

using run_driver_pointer = run_driver_actor::stateful_pointer<run_driver_state>;

void launch_start(run_driver_pointer self, std::size_t index);
void finish_run_if_done(run_driver_pointer self);

/// Reports a problem the driver itself found, as the actors report theirs.
void report_problem(run_driver_pointer self, messages::error_code code,
                    std::string message) {
  auto& st = self->state;
  messages::problem_event x;
  x.code = code;
  x.message = std::move(message);
  x.at_ms = st.clock->now_ms();
  ++st.events_seen;
  st.printer->print(x);
}

/// Submits demand `index` of the plan to the coordinator; a refusal is
/// reported as an error.
void submit_demand(run_driver_pointer self, std::size_t index) {
  auto& st = self->state;
  const auto& d = st.world.plan->demands[index];
  st.tracker.demand_sent();
  ++st.demands.demands;
  self->request(st.world.coordinator, caf::infinite,
                messages::submit_demand{d.raw_input, d.user_id, d.demand_id})
      .then(
          [self, index](messages::demand_receipt& x) {
            self->state.demand_ids[index] = std::move(x.demand_id);
            self->state.tracker.demand_answered();
            finish_run_if_done(self);
          },
          [self, index](caf::error& e) {
            auto& st = self->state;
            auto code = messages::is_parley_error(e)
                            ? static_cast<messages::error_code>(e.code())
                            : messages::error_code::invalid_request;
            auto why = self->system().render(e);
            const auto& d = st.world.plan->demands[index];
            auto name = d.demand_id.empty() ? "demands[" + std::to_string(index) + "]"
                                            : d.demand_id;
            st.refusals[index] = why;
            ++st.demands.demands_refused;
            ++st.summary.errors;
            report_problem(self, code, "demand " + name + " refused: " + why);
            st.tracker.demand_answered();
            finish_run_if_done(self);
          });
}

/// Asks the coordinator where every demand it took up stands.
void ask_for_views(run_driver_pointer self) {
  auto& st = self->state;
  st.views_at = st.channel_events;
  for (std::size_t i = 0; i < st.demand_ids.size(); ++i) {
    if (st.demand_ids[i].empty())
      continue;
    ++st.views_pending;
    self->request(st.world.coordinator, caf::infinite, caf::get_atom::value,
                  st.demand_ids[i])
        .then(
            [self, i](messages::demand_view& x) {
              self->state.views[i] = std::move(x);
              --self->state.views_pending;
              finish_run_if_done(self);
            },
            [self, i](caf::error& e) {
              auto& st = self->state;
              st.refusals[i] = self->system().render(e);
              st.demand_ids[i].clear();
              --st.views_pending;
              finish_run_if_done(self);
            });
  }
}

/// Whether every demand has ended as far as the coordinator and the bus
/// agree; asks the coordinator again when its views are older than the last
/// channel event, or say a channel runs whose end the bus already brought
/// (its report to the coordinator is still on the way). A channel the views
/// show but whose events have not all arrived yet is waited for: its events
/// come.
bool demands_settled(run_driver_pointer self) {
  auto& st = self->state;
  if (st.views_pending > 0)
    return false;
  if (st.views_at != st.channel_events) {
    ask_for_views(self);
    return st.views_pending == 0;
  }
  auto lagging = false;
  for (std::size_t i = 0; i < st.views.size(); ++i) {
    if (st.demand_ids[i].empty())
      continue;
    for (const auto& c : st.views[i].channels) {
      auto seen = st.ended.count(c.channel_id) > 0;
      auto running = c.status == messages::demand_status::processing;
      if (running && seen)
        lagging = true;
      else if (!seen)
        return false;
    }
    if (st.views[i].status == messages::demand_status::processing)
      lagging = true;
  }
  if (lagging)
    ask_for_views(self);
  return !lagging;
}

/// Counts the demands and their channels, and checks the plan's
/// expectations: each mismatch is reported as an error line.
void conclude_demands(run_driver_pointer self) {
  auto& st = self->state;
  const auto& plan = *st.world.plan;
  for (std::size_t i = 0; i < plan.demands.size(); ++i) {
    std::vector<std::string> mismatches;
    if (!st.demand_ids[i].empty()) {
      count_demand(st.demands, st.views[i]);
      if (plan.demands[i].expect) {
        const auto& view = st.views[i];
        auto rounds = view.channels.empty() ? 0 : st.ended[view.channels[0].channel_id];
        mismatches = check_expectation(*plan.demands[i].expect, view, rounds);
      }
    } else if (plan.demands[i].expect) {
      auto name = plan.demands[i].demand_id.empty()
                      ? "demands[" + std::to_string(i) + "]"
                      : plan.demands[i].demand_id;
      mismatches.push_back(refused_expectation(name, st.refusals[i]));
    }
    for (auto& m : mismatches) {
      ++st.demands.expectations_failed;
      report_problem(self, messages::error_code::invalid_scenario,
                     "expectation failed: " + m);
      st.world.mismatches->push_back(std::move(m));
    }
  }
}

/// Frees one window slot per start an event answered.
void settle_starts(run_driver_pointer self, std::size_t answered) {
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
void finish_run_if_done(run_driver_pointer self) {
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
  if (!st.world.plan->demands.empty()) {
    if (!demands_settled(self))
      return;
    conclude_demands(self);
  }
  st.finished = true;
  if (st.world.plan->demands.empty())
    st.printer->print(st.summary);
  else
    st.printer->print(st.summary, st.demands);
  self->send(st.world.listener, messages::done_atom::value, st.summary);
  self->quit();
}

void launch_start(run_driver_pointer self, std::size_t index) {
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
void barrier_through(run_driver_pointer self, const std::string& room) {
  auto& st = self->state;
  auto id = ++st.barriers_sent;
  st.tracker.barrier_sent(id, room);
  self->send(st.world.rooms.at(room),
             messages::barrier{id, caf::actor_cast<actors::subscriber_actor>(self)});
}

/// Delivers an injection to its room, as if `from` had sent it.
void inject(run_driver_pointer self, const scenario_inject& x) {
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

void open_ballot(run_driver_pointer self, std::size_t index) {
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

void open_auction(run_driver_pointer self, std::size_t index) {
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

void run_step(run_driver_pointer self, const step& s) {
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
    st.tracker.vote_sent(b.id, v.voter);
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
    st.tracker.bid_sent(a.id, x.bidder);
    self->send(st.world.agents.at(x.bidder),
               messages::place_bid{st.auctions[s.index],
                                   messages::bid{a.id, x.bidder, x.capability, x.load,
                                                 x.estimated_duration_ms}});
    return;
  }
  case step_kind::demand:
    submit_demand(self, s.index);
    return;
  }
}

/// Runs every step that is due, then schedules the next one: one pending
/// timer at a time, however long the scenario.
void run_due_steps(run_driver_pointer self) {
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
  finish_run_if_done(self);
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
  for (std::size_t i = 0; i < plan.demands.size(); ++i)
    steps.push_back(step{plan.demands[i].at_ms, step_kind::demand, i, 0});
  for (std::size_t i = 0; i < plan.ballots.size(); ++i)
    for (std::size_t k = 0; k < plan.ballots[i].votes.size(); ++k)
      steps.push_back(step{plan.ballots[i].votes[k].at_ms, step_kind::vote, i, k});
  for (std::size_t i = 0; i < plan.auctions.size(); ++i)
    for (std::size_t k = 0; k < plan.auctions[i].bids.size(); ++k)
      steps.push_back(step{plan.auctions[i].bids[k].at_ms, step_kind::bid, i, k});
  // Same time: negotiations, injections, transcripts, ballots and auctions
  // opening, demands, then votes and bids, each in file order.
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
template <class Event> void on_event(run_driver_pointer self, const Event& x) {
  auto& st = self->state;
  ++st.events_seen;
  st.printer->print(x);
}

/// The driver starts on its first `step` (it is spawned lazily, subscribed,
/// and only then is its cast built: rooms placed on nodes publish what their
/// bus wanted when they were placed).
run_driver_actor::behavior_type run_driver(run_driver_pointer self, cast* world) {
  auto& st = self->state;
  st.world = std::move(*world);
  st.clock.emplace(self->system());
  st.start_ms = st.clock->now_ms();
  st.printer.emplace(st.world.format, *st.world.out, st.start_ms);
  st.window.emplace(st.world.start_window);
  st.steps = schedule(*st.world.plan);
  st.ballots.resize(st.world.plan->ballots.size());
  st.auctions.resize(st.world.plan->auctions.size());
  st.demand_ids.resize(st.world.plan->demands.size());
  st.refusals.resize(st.world.plan->demands.size());
  st.views.resize(st.world.plan->demands.size());
  return {
      [self](messages::step_atom) { run_due_steps(self); },
      [self](const messages::barrier& x) {
        self->state.tracker.barrier_back(x.id);
        finish_run_if_done(self);
      },
      [self](const messages::negotiation_event& x) {
        auto& st = self->state;
        on_event(self, x);
        count(st.summary, x);
        settle_starts(self, st.tracker.on(x));
        finish_run_if_done(self);
      },
      [self](const messages::problem_event& x) {
        auto& st = self->state;
        on_event(self, x);
        if (x.severity == messages::severity::error)
          ++st.summary.errors;
        else
          ++st.summary.warnings;
        settle_starts(self, st.tracker.on(x));
        finish_run_if_done(self);
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
        finish_run_if_done(self);
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
        finish_run_if_done(self);
      },
      [self](const messages::agent_event& x) {
        on_event(self, x);
        finish_run_if_done(self);
      },
      [self](const messages::channel_event& x) {
        auto& st = self->state;
        on_event(self, x);
        ++st.channel_events;
        using kind = messages::channel_event_kind;
        if (x.kind == kind::finalized || x.kind == kind::force_finalized ||
            x.kind == kind::failed)
          st.ended[x.channel_id] = x.round;
        st.tracker.on(x);
        finish_run_if_done(self);
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
constexpr auto run_flush_limit = std::chrono::seconds{60};

/// Stops the world when the run is over, however it ends; in simulated time
/// the actors only stop when the coordinator runs them.
class stop_guard {
public:
  stop_guard(runtime::world& w, bool simulated) : w_(w), simulated_(simulated) {}

  ~stop_guard() {
    w_.stop();
    if (simulated_)
      dynamic_cast<caf::scheduler::test_coordinator&>(w_.system().scheduler()).run();
  }

  stop_guard(const stop_guard&) = delete;
  stop_guard& operator=(const stop_guard&) = delete;

private:
  runtime::world& w_;
  bool simulated_;
};

} // namespace

messages::run_summary run_scenario(const scenario& plan,
                                   const config::settings& settings,
                                   const run_options& options, std::ostream& out) {
  if (options.simulated_time && plan.has_llm_agents())
    throw std::runtime_error("LLM agents call real HTTP endpoints: run this scenario "
                             "without --simulated-time");
  if (options.simulated_time && options.watch.enabled)
    throw std::runtime_error("--serve answers requests in real time: run without "
                             "--simulated-time to watch a run");
  // Outlives the world: the driver writes here until it stops.
  std::vector<std::string> mismatches;
  caf::actor_system_config cfg;
  configure(cfg,
            runtime::system_options{options.simulated_time, settings.runtime.scheduler_threads,
                           !options.remotes.empty(), settings.cluster});
  caf::actor_system sys{cfg};
  caf::scoped_actor listener{sys};
  // Watched (--serve): /metrics too, its metrics actor on the bus.
  runtime::world w{sys, settings, options.remotes, 0,
          options.watch.enabled ? service::make_node_metrics() : nullptr};
  stop_guard stop{w, options.simulated_time};
  // Watched, the run's API answers from the store.
  if (!options.store.empty())
    w.add_store(options.store, !options.watch.enabled);
  std::optional<watch> watching;
  if (options.watch.enabled)
    watching.emplace(w, options.watch, std::cerr);
  cast c;
  auto driving = sys.spawn<caf::lazy_init>(run_driver, &c);
  w.events().subscribe(messages::topic_set::all(), driving);
  c.plan = &plan;
  c.builder = &w;
  c.coordinator = w.coordinator();
  c.events = w.events();
  c.listener = caf::actor_cast<run_listener_actor>(listener);
  c.format = options.format;
  c.out = &out;
  c.mismatches = &mismatches;
  c.start_window =
      static_cast<std::size_t>(settings.runtime.start_window_for(!options.remotes.empty()));
  // Looked up per room member below: a set, not a scan of the agents (a
  // scenario of 100k rooms would compare ids 2·10¹⁰ times).
  std::unordered_set<std::string> llm_ids;
  std::unordered_map<std::string, messages::shared<messages::party_valuation>>
      valuations;
  for (const auto& a : plan.agents) {
    messages::agent_spec spec{a.id, a.profile, a.brain};
    if (auto v = actors::agent::valuation_of(spec))
      valuations.emplace(a.id, std::move(v));
    c.agents.emplace(a.id, w.add_agent(std::move(spec)));
    if (a.brain.kind == messages::brain_kind::llm)
      llm_ids.insert(a.id);
  }
  c.llm_agents = w.llm_agents();
  for (const auto& m : plan.channel_agents)
    w.add_channel_member(m);
  std::vector<messages::room_spec> specs;
  for (const auto& r : plan.rooms) {
    std::vector<messages::room_member> members;
    for (const auto& p : r.participants) {
      auto v = valuations.find(p);
      members.push_back({p, c.agents.at(p), llm_ids.count(p) > 0, false,
                         v != valuations.end()
                             ? v->second
                             : messages::shared<messages::party_valuation>{}});
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
  if (auto why = w.flush_store(run_flush_limit); !why.empty())
    throw std::runtime_error("the store did not commit the run: " + why);
  if (watching)
    watching->linger();
  if (!mismatches.empty()) {
    auto what = std::to_string(mismatches.size()) +
                " expectation(s) of the scenario did not hold";
    for (const auto& m : mismatches)
      what += "\n  " + m;
    throw expectation_error(what);
  }
  return *result;
}

} // namespace parley::cli
