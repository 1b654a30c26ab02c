#include "actors/gateway/actor.hpp"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "caf/actor_clock.hpp"
#include "caf/actor_system.hpp"
#include "caf/atom.hpp"
#include "caf/node_id.hpp"
#include "caf/typed_event_based_actor.hpp"
#include "caf/typed_response_promise.hpp"

#include "actors/agent/valuation.hpp"
#include "actors/common/deadline_queue.hpp"
#include "actors/common/relay_links.hpp"
#include "actors/gateway/ledger.hpp"
#include "actors/gateway/owner_cache.hpp"
#include "actors/negotiation/replay.hpp"
#include "messages/handles/move_relay.hpp"
#include "messages/json.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::gateway {

namespace {

using messages::error_code;
using record_promise = caf::typed_response_promise<messages::negotiation_record>;

/// A coded error whose context also carries JSON `details`.
caf::error api_error(error_code code, std::string message,
                     const nlohmann::json& details) {
  return messages::make_error(code, std::move(message), details.dump());
}

struct agent_entry {
  messages::agent_spec spec;
  agent_actor handle;
  /// Made once, shared by every room the agent joins.
  messages::shared<messages::party_valuation> valuation;
};

struct room_entry {
  room_actor handle;
  std::vector<std::string> members;
  /// The id of its open negotiation, if any.
  std::string active;
};

/// A request waiting for the event or refusal that answers it: the first
/// caller, and callers that replayed its message id meanwhile.
struct waiting {
  record_promise first;
  std::vector<record_promise> replays;
  /// Its deadline's ticket (see `request_ref`).
  std::uint64_t ticket = 0;
  /// The first caller's move: a replay must be the same move.
  negotiation::move_fingerprint first_move;
};

/// An opening waiting for its `started` event and then its commit.
struct opening {
  record_promise promise;
  /// Its deadline's ticket (see `request_ref`).
  std::uint64_t ticket = 0;
};

/// The request a deadline bounds: an opening (by its message id) or a move
/// (by its `move_key`). All wait outcome_timeout, so their deadlines come in
/// order and the gateway keeps one timer, for the earliest.
struct request_ref {
  bool start = false;
  std::string key;
};

/// A recovery: which step it is at (idle when none runs, or all is handed
/// on), and where the store's next page of that step starts.
struct recovery_job {
  enum class step { idle, agents, rooms, negotiations, channels };
  step at = step::idle;
  /// The cursor of the step's next page ("": its first).
  std::string cursor;
};

struct gateway_state {
  static inline const char* name = "parley.gateway";
  builder build;
  gateway_options options;
  ledger book;
  std::map<std::string, agent_entry> agents;
  std::map<std::string, room_entry> rooms;
  /// Openings by the start request's message id, until their record is
  /// committed.
  std::unordered_map<std::string, opening> starts;
  /// Moves by negotiation id and message id (see `move_key`).
  std::unordered_map<std::string, waiting> moves;
  /// The deadlines of the openings and moves above (see `trim`).
  deadline_queue<caf::actor_clock::time_point, request_ref> deadlines;
  /// Whether the timer for the earliest deadline is set.
  bool timer_set = false;
  std::uint64_t next_start = 0;
  std::uint64_t next_room_seed = 0;
  /// Recovery: how far it got (see `next_step`), and its answer, held
  /// until every item is handed on and a barrier came back from every room
  /// that resumed a negotiation (behind whatever that negotiation published
  /// at once, such as its expiry).
  recovery_job recovery;
  caf::typed_response_promise<messages::recovery_report> recovered;
  messages::recovery_report report;
  std::size_t barriers_out = 0;
  /// Whether a recovery runs (until it is answered), and the recoveries
  /// asked for meanwhile (a cluster's take-over during the start's
  /// recovery), each run after the one before it.
  bool recovering = false;
  std::deque<caf::typed_response_promise<messages::recovery_report>> queued;
  /// The move relays of the cluster's other nodes, once connected, and the
  /// moves and openings forwarded to each and not answered yet.
  relay_links relays;
  /// Which node runs the negotiations forwarded to lately (a hint).
  owner_cache owners;
  /// Agents and rooms whose store write is under way (see `persist_into`):
  /// their ids are taken, they are not usable yet.
  std::set<std::string> agents_pending;
  std::set<std::string> rooms_pending;
};

using self_pointer = gateway_actor::stateful_pointer<gateway_state>;

std::string move_key(const std::string& negotiation_id, const std::string& message_id) {
  return negotiation_id + '\n' + message_id;
}

caf::error unknown_agent(const std::string& id, const std::string& field) {
  return api_error(error_code::agent_not_found, "no agent \"" + id + "\"",
                   {{"field", field}, {"agent_id", id}});
}

caf::error duplicate(const messages::negotiation_record& first,
                     const std::string& message_id) {
  return api_error(error_code::duplicate_message,
                   "message " + message_id + " was already applied; this is its result",
                   {{"message_id", message_id}, {"result", first}});
}

/// E035: `message_id` is taken by another move of negotiation
/// `negotiation_id` (applied, or still being settled); `differs` names what
/// the new one changes (negotiation::differences).
caf::error reused(const std::string& negotiation_id, const std::string& message_id,
                  const std::vector<std::string>& differs) {
  return api_error(error_code::message_id_reused,
                   negotiation::reuse_text(message_id, differs) +
                       "; nothing was applied",
                   {{"negotiation_id", negotiation_id},
                    {"message_id", message_id},
                    {"differs", differs}});
}

/// The answer to `again`, a move whose message id made the last round of
/// `result` (the record right after that move): E011 with `result` when it
/// is the same move, E035 otherwise.
caf::error replay_answer(const messages::negotiation_record& result,
                         const std::string& message_id,
                         const negotiation::move_fingerprint& again) {
  auto differs = negotiation::differences(
      negotiation::fingerprint_of(result.rounds.back()), again);
  if (differs.empty())
    return duplicate(result, message_id);
  return reused(result.id, message_id, differs);
}

/// Builds the room `id` of registered agents `members`.
room_entry& build_room(self_pointer self, const std::string& id,
                       const std::vector<std::string>& members) {
  auto& st = self->state;
  std::vector<messages::room_member> with;
  for (const auto& m : members) {
    const auto& agent = st.agents.at(m);
    with.push_back(messages::room_member{
        m, agent.handle, agent.spec.brain.kind == messages::brain_kind::llm, false,
        agent.valuation});
  }
  auto handle = st.build.add_room(id, std::move(with));
  return st.rooms[id] = room_entry{std::move(handle), members, {}};
}

/// Spawns agent `spec` and registers it.
messages::agent_spec add_agent(self_pointer self, const messages::agent_spec& spec) {
  auto handle = self->state.build.add_agent(spec);
  self->state.agents.emplace(
      spec.id, agent_entry{spec, std::move(handle), agent::valuation_of(spec)});
  return spec;
}

/// With `clustered`, an agent registered through another node is learnt from
/// the store when this node first needs it (docs/cluster.md, "Any node
/// answers"): asks the store for those of `ids` this node does not know,
/// registers the ones it holds, then calls `next` with no error (an id still
/// unknown is unknown to the cluster) or with the store's. Otherwise, or when
/// all are known, calls `next` at once.
template <class Next>
void learn_agents(self_pointer self, std::vector<std::string> ids, Next next) {
  auto& st = self->state;
  ids.erase(std::remove_if(ids.begin(), ids.end(),
                           [&st](const std::string& id) {
                             return st.agents.count(id) != 0 ||
                                    st.agents_pending.count(id) != 0;
                           }),
            ids.end());
  if (!st.options.clustered || !st.options.store || ids.empty()) {
    next(caf::error{});
    return;
  }
  self->request(st.options.store, st.options.outcome_timeout, messages::get_atom::value,
                messages::agent_atom::value, std::move(ids))
      .then(
          [self, next](std::vector<messages::agent_spec>& found) mutable {
            auto& st = self->state;
            for (const auto& spec : found)
              if (st.agents.count(spec.id) == 0 &&
                  st.agents_pending.count(spec.id) == 0)
                add_agent(self, spec);
            next(caf::error{});
          },
          [next](caf::error& err) mutable { next(std::move(err)); });
}

/// For the deadline queue: whether the request `r` with `ticket` still
/// waits (and not a later one under the same key).
auto still_waits(const gateway_state& st) {
  return [&st](const request_ref& r, std::uint64_t ticket) {
    if (r.start) {
      auto i = st.starts.find(r.key);
      return i != st.starts.end() && i->second.ticket == ticket;
    }
    auto i = st.moves.find(r.key);
    return i != st.moves.end() && i->second.ticket == ticket;
  };
}

/// Drops the deadlines of answered requests from the front.
void trim(self_pointer self) {
  self->state.deadlines.trim(still_waits(self->state));
}

/// Sets the timer for the earliest deadline, unless it is set.
void set_timer(self_pointer self) {
  auto& st = self->state;
  auto at = st.deadlines.next();
  if (st.timer_set || !at)
    return;
  st.timer_set = true;
  auto now = self->clock().now();
  self->delayed_send(self,
                     *at > now ? *at - now : caf::actor_clock::duration_type::zero(),
                     caf::timeout_atom::value);
}

/// Gives the next request a deadline outcome_timeout from now; returns its
/// ticket.
std::uint64_t arm(self_pointer self, bool start, const std::string& key) {
  auto& st = self->state;
  auto ticket = st.deadlines.push(self->clock().now() + st.options.outcome_timeout,
                                  request_ref{start, key});
  set_timer(self);
  return ticket;
}

void deliver_move(self_pointer self, const std::string& key,
                  const caf::expected<messages::negotiation_record>& outcome) {
  auto& st = self->state;
  auto i = st.moves.find(key);
  if (i == st.moves.end())
    return;
  auto entry = std::move(i->second);
  st.moves.erase(i);
  trim(self);
  if (outcome) {
    entry.first.deliver(*outcome);
    for (auto& r : entry.replays)
      r.deliver(duplicate(*outcome, key.substr(key.find('\n') + 1)));
  } else {
    entry.first.deliver(outcome.error());
    for (auto& r : entry.replays)
      r.deliver(outcome.error());
  }
}

// -- reads of committed state (docs/api.md, "Reads show what is committed") --

/// Notes in the ledger that the store committed `record`'s rounds (and its
/// end, when `ended`).
void note_committed(self_pointer self, const messages::negotiation_record& record,
                    bool ended) {
  self->state.book.mark_committed(
      record.id, static_cast<std::int32_t>(record.rounds.size()), ended);
}

/// Negotiation `id`'s record as far as the store committed it: the ledger's
/// when the store confirmed it as it is now (at once when it is known to be,
/// else after a `sync` for its rounds and end); when that fails (the store
/// cannot commit now), and for one the ledger forgot, the store's own row.
/// Without a store, the ledger's.
caf::result<messages::negotiation_record> committed_record(self_pointer self,
                                                           const std::string& id) {
  auto& st = self->state;
  const auto* record = st.book.find(id);
  if (record == nullptr) {
    if (!st.options.store)
      return api_error(error_code::negotiation_not_found,
                       "no negotiation \"" + id + "\"", {{"negotiation_id", id}});
    // Forgotten here (or from before a restart): the store's record.
    return self->delegate(st.options.store, messages::get_atom::value, id);
  }
  if (!st.options.store || st.book.committed(id))
    return *record;
  auto promise = self->make_response_promise<messages::negotiation_record>();
  auto ended = messages::is_terminal(record->status);
  self->request(st.options.store, st.options.outcome_timeout,
                messages::sync_atom::value, id,
                static_cast<std::int32_t>(record->rounds.size()), ended)
      .then(
          [self, promise, snapshot = *record, ended](std::int32_t) mutable {
            note_committed(self, snapshot, ended);
            promise.deliver(std::move(snapshot));
          },
          [self, promise, id](caf::error&) mutable {
            promise.delegate(self->state.options.store, messages::get_atom::value, id);
          });
  return promise;
}

/// Calls `deliver` with `record` once the store committed it (at least its
/// rounds, or its end), or with the store's error; at once without a store.
template <class Deliver>
void after_commit(self_pointer self, const messages::negotiation_record& record,
                  Deliver deliver) {
  auto& st = self->state;
  if (!st.options.store) {
    deliver(caf::expected<messages::negotiation_record>{record});
    return;
  }
  // No timer of its own: the store answers every sync within its sync
  // timeout, and the request's deadline here comes first.
  self->request(st.options.store, caf::infinite, messages::sync_atom::value, record.id,
                static_cast<std::int32_t>(record.rounds.size()))
      .then(
          [self, deliver, record](std::int32_t) mutable {
            note_committed(self, record, false);
            deliver(caf::expected<messages::negotiation_record>{std::move(record)});
          },
          [deliver](caf::error& err) mutable {
            deliver(caf::expected<messages::negotiation_record>{std::move(err)});
          });
}

void on_event(self_pointer self, const messages::negotiation_event& x) {
  auto& st = self->state;
  const auto* record = st.book.apply(x);
  if (record == nullptr)
    return;
  auto room = st.rooms.find(x.room_id);
  if (room != st.rooms.end()) {
    if (messages::is_terminal(record->status)) {
      if (room->second.active == x.negotiation_id)
        room->second.active.clear();
    } else {
      room->second.active = x.negotiation_id;
    }
  }
  if (x.message_id.empty())
    return;
  if (x.kind == messages::negotiation_event_kind::started) {
    auto i = st.starts.find(x.message_id);
    if (i != st.starts.end())
      // The opening waits on, within its deadline, for the commit.
      after_commit(self, *record,
                   [self, message_id = x.message_id, ticket = i->second.ticket](
                       caf::expected<messages::negotiation_record> outcome) {
                     auto& st = self->state;
                     auto j = st.starts.find(message_id);
                     if (j == st.starts.end() || j->second.ticket != ticket)
                       return; // given up meanwhile
                     auto promise = std::move(j->second.promise);
                     st.starts.erase(j);
                     trim(self);
                     if (outcome)
                       promise.deliver(std::move(*outcome));
                     else
                       promise.deliver(std::move(outcome.error()));
                   });
    return;
  }
  auto key = move_key(x.negotiation_id, x.message_id);
  if (st.moves.count(key) == 0)
    return;
  // Replays wait with the first caller until the move is committed: no 2xx,
  // E011 included, shows a record the store might lose.
  after_commit(self, *record,
               [self, key](caf::expected<messages::negotiation_record> outcome) {
                 deliver_move(self, key, outcome);
               });
}

void on_problem(self_pointer self, const messages::problem_event& x) {
  auto& st = self->state;
  if (x.message_id.empty())
    return;
  auto error = api_error(x.code, x.message,
                         {{"negotiation_id", x.negotiation_id},
                          {"agent_id", x.agent_id},
                          {"message_id", x.message_id}});
  if (x.negotiation_id.empty()) {
    auto i = st.starts.find(x.message_id);
    if (i != st.starts.end()) {
      i->second.promise.deliver(std::move(error));
      st.starts.erase(i);
      trim(self);
    }
    return;
  }
  deliver_move(self, move_key(x.negotiation_id, x.message_id), error);
}

caf::error too_slow() {
  return api_error(error_code::overloaded,
                   "the runtime did not settle the request in time; retry it",
                   nlohmann::json::object());
}

/// The timer: gives up the requests whose deadline passed, then sets it
/// for the next.
void on_timer(self_pointer self) {
  auto& st = self->state;
  st.timer_set = false;
  st.deadlines.take_due(self->clock().now(), still_waits(st),
                        [self](const request_ref& r, std::uint64_t) {
                          auto& st = self->state;
                          if (!r.start) {
                            deliver_move(self, r.key, too_slow());
                            return;
                          }
                          auto i = st.starts.find(r.key);
                          i->second.promise.deliver(too_slow());
                          st.starts.erase(i);
                        });
  set_timer(self);
}

/// The id of the room a pair's negotiations run in when no room is named.
std::string pair_room_id(const std::string& initiator, const std::string& responder) {
  return "pair:" + initiator + "+" + responder;
}

/// Opens negotiation `x` in room `room_id` (its pair's room when empty) once
/// both parties are known here.
void open_known(self_pointer self, record_promise promise, const std::string& room_id,
                messages::start_negotiation& x) {
  auto& st = self->state;
  for (auto [id, field] :
       {std::pair{&x.initiator, "initiator"}, std::pair{&x.responder, "responder"}})
    if (st.agents.count(*id) == 0) {
      promise.deliver(unknown_agent(*id, field));
      return;
    }
  room_entry* room = nullptr;
  if (room_id.empty()) {
    auto pair_id = pair_room_id(x.initiator, x.responder);
    auto i = st.rooms.find(pair_id);
    room = i != st.rooms.end() ? &i->second
                               : &build_room(self, pair_id, {x.initiator, x.responder});
  } else {
    auto i = st.rooms.find(room_id);
    if (i == st.rooms.end()) {
      promise.deliver(api_error(error_code::room_not_found,
                                "no room \"" + room_id + "\"",
                                {{"field", "room_id"}, {"room_id", room_id}}));
      return;
    }
    room = &i->second;
  }
  x.message_id = "api-start-" + std::to_string(++st.next_start);
  st.starts.emplace(x.message_id, opening{promise, arm(self, true, x.message_id)});
  self->send(room->handle, std::move(x));
}

/// Opens negotiation `x` here once its parties are known (`learn_agents`).
void open_here(self_pointer self, record_promise promise, const std::string& room_id,
               messages::start_negotiation x) {
  // Named before `x` is moved into the continuation: the order in which a
  // call's arguments are evaluated is unspecified.
  std::vector<std::string> parties{x.initiator, x.responder};
  learn_agents(self, std::move(parties),
               [self, promise, room_id, x = std::move(x)](caf::error err) mutable {
                 if (err)
                   promise.deliver(std::move(err));
                 else
                   open_known(self, promise, room_id, x);
               });
}

/// Answers `promise`, the replay `again` of the move that made the last round
/// of `result` (recognised from the ledger): E035 when it is another move;
/// otherwise E011 with `result` once the store holds that round (and the end
/// it made, if any). A move whose first caller gave up before its commit may
/// still be on its way there, and no answer, E011 included, shows what a
/// restart could lose; the store's error (E028) while it cannot commit.
void answer_replay(self_pointer self, record_promise promise,
                   const messages::negotiation_record& result,
                   const std::string& message_id,
                   const negotiation::move_fingerprint& again) {
  auto& st = self->state;
  auto differs = negotiation::differences(
      negotiation::fingerprint_of(result.rounds.back()), again);
  if (!differs.empty()) {
    promise.deliver(reused(result.id, message_id, differs));
    return;
  }
  if (!st.options.store || st.book.committed(result.id)) {
    promise.deliver(duplicate(result, message_id));
    return;
  }
  auto ended = messages::is_terminal(result.status);
  self->request(st.options.store, st.options.outcome_timeout,
                messages::sync_atom::value, result.id,
                static_cast<std::int32_t>(result.rounds.size()), ended)
      .then(
          [self, promise, result, message_id, ended](std::int32_t) mutable {
            note_committed(self, result, ended);
            promise.deliver(duplicate(result, message_id));
          },
          [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

/// E030 for a request forwarded to the node at `address` that could not be
/// reached (relay_unreachable), counted.
caf::error unreachable(self_pointer self, const std::string& what,
                       nlohmann::json details, const std::string& address,
                       const std::string& why) {
  if (self->state.options.metrics)
    self->state.options.metrics->forward_failures.add();
  return relay_unreachable(what, std::move(details), address, why);
}

/// An opening placed on another node (docs/cluster.md, "Placement").
struct placed_opening {
  std::string room_id;
  messages::start_negotiation x;
};

// What a forwarded request is, for its error when its node cannot be
// reached; whether it may be sent again (a move is idempotent by its
// message id, an opening is not); and how it is asked of a relay.

std::string what_of(const placed_opening& o) {
  return "the negotiation of " + o.x.initiator + " and " + o.x.responder + " is placed";
}

template <class Move> std::string what_of(const Move& x) {
  return "negotiation " + x.negotiation_id + " runs";
}

nlohmann::json details_of(const placed_opening& o) {
  return {{"initiator", o.x.initiator}, {"responder", o.x.responder}};
}

template <class Move> nlohmann::json details_of(const Move& x) {
  return {{"negotiation_id", x.negotiation_id}};
}

std::string negotiation_of(const placed_opening&) {
  return {};
}

template <class Move> std::string negotiation_of(const Move& x) {
  return x.negotiation_id;
}

bool resendable(const placed_opening&) {
  return false;
}

template <class Move> bool resendable(const Move&) {
  return true;
}

auto ask_relay(self_pointer self, const move_relay_actor& relay,
               const placed_opening& o) {
  return self->request(relay, self->state.options.outcome_timeout,
                       messages::place_atom::value, o.room_id, o.x);
}

template <class Move>
auto ask_relay(self_pointer self, const move_relay_actor& relay, const Move& x) {
  return self->request(relay, self->state.options.outcome_timeout, x);
}

/// The answer to a move sent again whose first sending was applied (its
/// answer lost with the connection): the owner's E011 carries the record
/// right after that move, which is the answer the caller waits for.
std::optional<messages::negotiation_record> applied_before(const caf::error& err) {
  const auto& ctx = err.context();
  if (!messages::is_parley_error(err) ||
      err.code() != static_cast<std::uint8_t>(error_code::duplicate_message) ||
      ctx.size() != 2 || !ctx.match_element<std::string>(1))
    return std::nullopt;
  auto details = nlohmann::json::parse(ctx.get_as<std::string>(1), nullptr, false);
  if (!details.is_object() || !details.contains("result"))
    return std::nullopt;
  try {
    return messages::from_json_value<messages::negotiation_record>(details["result"]);
  } catch (const messages::json_error&) {
    return std::nullopt;
  }
}

/// Whether `err`, a node's answer to a forwarded move, shows that the node
/// still runs the negotiation (the move was refused by its rules), so that
/// the owner cache keeps it; not when it was not found, ended, or the node
/// could not act (E030) or be reached.
bool runs_there(const caf::error& err) {
  if (!messages::is_parley_error(err))
    return false;
  auto code = static_cast<error_code>(err.code());
  return code != error_code::negotiation_not_found &&
         code != error_code::negotiation_not_active && code != error_code::overloaded;
}

/// Move (or opening) `x` on its way to the node that runs its negotiation
/// (actors/common/relay_links.hpp's `Request`), answered through `promise`.
template <class Move> struct forwarded_move {
  using answer_type = messages::negotiation_record;
  self_pointer self;
  record_promise promise;
  Move x;
  /// The node's address (`host:port`): where the owner cache says it runs.
  std::string address;

  bool resendable() const { return gateway::resendable(x); }

  auto ask(self_pointer, const move_relay_actor& relay,
           std::chrono::milliseconds) const {
    return ask_relay(self, relay, x);
  }

  void deliver(messages::negotiation_record r, int) {
    // The answer says who runs it: the next move goes straight there.
    if (messages::is_terminal(r.status))
      self->state.owners.forget(r.id);
    else
      self->state.owners.remember(r.id, address);
    promise.deliver(std::move(r));
  }

  void refuse(caf::error err, int sent) {
    if (auto record = sent > 0 ? applied_before(err) : std::nullopt) {
      deliver(std::move(*record), sent);
      return;
    }
    if (!runs_there(err))
      self->state.owners.forget(negotiation_of(x));
    promise.deliver(std::move(err));
  }

  void unreachable(const std::string& to, const std::string& why) {
    self->state.owners.forget(negotiation_of(x));
    promise.deliver(gateway::unreachable(self, what_of(x), details_of(x), to, why));
  }
};

/// Forwards move `x` to the node at `address` (`host:port` of its node
/// port), which runs its negotiation (docs/cluster.md, "Any node answers"),
/// and answers `promise` with that node's answer; a move whose connection
/// is lost is sent again, up to relay_max_sends sendings in all.
template <class Move>
void forward(self_pointer self, record_promise promise, const std::string& address,
             const Move& x, int sent) {
  auto& st = self->state;
  if (st.options.metrics && sent == 0)
    st.options.metrics->forwarded.add();
  forward_to_relay(self, st.relays, st.options.connector, st.options.outcome_timeout,
                   address, forwarded_move<Move>{self, std::move(promise), x, address},
                   sent);
}

/// Answers `promise`, the move `x` of an open negotiation this cluster node
/// does not run: forwarded to the node that runs it, or E030 while none does
/// (its node died and no survivor took it over yet).
template <class Move>
void move_elsewhere(self_pointer self, record_promise promise, const Move& x) {
  auto& st = self->state;
  auto not_here = [promise, id = x.negotiation_id]() mutable {
    promise.deliver(api_error(error_code::overloaded,
                              "negotiation " + id +
                                  " runs on no live node of the cluster yet (its node "
                                  "died and is being taken over); retry",
                              {{"negotiation_id", id}}));
  };
  if (!st.options.connector) {
    not_here();
    return;
  }
  if (st.options.metrics)
    st.options.metrics->owner_lookups.add();
  self->request(st.options.store, st.options.outcome_timeout,
                messages::owner_atom::value, x.negotiation_id)
      .then(
          [self, promise, x, not_here](const std::string& address) mutable {
            if (address.empty())
              not_here();
            else
              forward(self, promise, address, x, 0);
          },
          [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

/// Opens negotiation `x` in room `room_id`: a cluster's node places one in a
/// pair's own room (no `room_id`) on the live node that ranks first for the
/// room (docs/cluster.md, "Placement"), here or forwarded; a named room's
/// runs here, where the room is.
record_promise open(self_pointer self, const std::string& room_id,
                    messages::start_negotiation& x) {
  auto& st = self->state;
  auto promise = self->make_response_promise<messages::negotiation_record>();
  auto address =
      room_id.empty() && st.options.connector && st.options.placement
          ? st.options.placement->node_for(pair_room_id(x.initiator, x.responder))
          : std::string{};
  if (address.empty())
    open_here(self, promise, room_id, std::move(x));
  else
    forward(self, promise, address, placed_opening{{}, std::move(x)}, 0);
  return promise;
}

/// Answers `promise`, the move `x` of a negotiation the gateway does not
/// hold (it ended long ago, or before a restart), from the store's record:
/// E011 or E035 when one of its rounds carries the message id, E016 (or the
/// store's error, E015 when it has none) otherwise. In a cluster, a
/// negotiation still open in the store runs on another node, which the move
/// is forwarded to, or is being taken over from a dead one (E030, to be
/// tried again: docs/cluster.md, "Any node answers").
template <class Move>
void move_from_store(self_pointer self, record_promise promise, const Move& x) {
  auto& st = self->state;
  self->request(st.options.store, st.options.outcome_timeout, messages::get_atom::value,
                x.negotiation_id)
      .then(
          [self, promise, x, message_id = x.message_id,
           again = negotiation::fingerprint_of(x)](
              const messages::negotiation_record& stored) mutable {
            if (auto result = negotiation::record_after(stored, message_id)) {
              promise.deliver(replay_answer(*result, message_id, again));
              return;
            }
            if (self->state.options.clustered &&
                !messages::is_terminal(stored.status)) {
              move_elsewhere(self, promise, x);
              return;
            }
            promise.deliver(
                api_error(error_code::negotiation_not_active,
                          "negotiation " + stored.id + " is not open here (" +
                              messages::to_string(stored.status) + ")",
                          {{"negotiation_id", stored.id},
                           {"status", messages::to_string(stored.status)}}));
          },
          [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

/// Checks what only the gateway knows of a move, then passes it to the room.
/// A message id that made a round, or that a move still being settled
/// carries, is answered as a replay of that move (E011 with its result) when
/// it is the same move, refused with E035 otherwise. A move of a negotiation
/// another node runs goes there, by the owner cache unless another node
/// `relayed` it here.
template <class Move> record_promise move(self_pointer self, Move& x, bool relayed) {
  auto& st = self->state;
  auto promise = self->make_response_promise<messages::negotiation_record>();
  const auto* record = st.book.find(x.negotiation_id);
  if (record == nullptr) {
    if (const auto* owner = relayed ? nullptr : st.owners.find(x.negotiation_id))
      forward(self, promise, std::string{*owner}, x, 0);
    else if (st.options.store)
      move_from_store(self, promise, x);
    else
      promise.deliver(api_error(error_code::negotiation_not_found,
                                "no negotiation \"" + x.negotiation_id + "\"",
                                {{"negotiation_id", x.negotiation_id}}));
    return promise;
  }
  if (auto result = st.book.result_of(x.negotiation_id, x.message_id)) {
    answer_replay(self, promise, *result, x.message_id, negotiation::fingerprint_of(x));
    return promise;
  }
  auto key = move_key(x.negotiation_id, x.message_id);
  if (auto i = st.moves.find(key); i != st.moves.end()) {
    auto differs =
        negotiation::differences(i->second.first_move, negotiation::fingerprint_of(x));
    if (differs.empty())
      i->second.replays.push_back(promise);
    else
      promise.deliver(reused(x.negotiation_id, x.message_id, differs));
    return promise;
  }
  auto agent = st.agents.find(x.from_agent);
  if (agent == st.agents.end()) {
    promise.deliver(unknown_agent(x.from_agent, "from"));
    return promise;
  }
  if (x.from_agent != record->initiator && x.from_agent != record->responder) {
    promise.deliver(api_error(error_code::not_a_party,
                              "\"" + x.from_agent +
                                  "\" is not a party to negotiation " + record->id,
                              {{"field", "from"}, {"negotiation_id", record->id}}));
    return promise;
  }
  if (agent->second.spec.brain.kind != messages::brain_kind::external) {
    promise.deliver(api_error(error_code::not_a_party,
                              "\"" + x.from_agent + "\" is a hosted agent (brain " +
                                  messages::to_string(agent->second.spec.brain.kind) +
                                  "): its moves come from its brain, not from the API",
                              {{"field", "from"}, {"negotiation_id", record->id}}));
    return promise;
  }
  if (messages::is_terminal(record->status)) {
    promise.deliver(api_error(error_code::negotiation_not_active,
                              "negotiation " + record->id + " already ended (" +
                                  messages::to_string(record->status) + ")",
                              {{"negotiation_id", record->id},
                               {"status", messages::to_string(record->status)}}));
    return promise;
  }
  auto room = st.rooms.find(record->room_id);
  if (room == st.rooms.end()) {
    promise.deliver(
        api_error(error_code::room_not_found,
                  "negotiation " + record->id + " is in a room the API did not build",
                  {{"room_id", record->room_id}}));
    return promise;
  }
  st.moves.emplace(
      key, waiting{promise, {}, arm(self, false, key), negotiation::fingerprint_of(x)});
  self->send(room->second.handle, std::move(x));
  return promise;
}

// -- crash recovery -------------------------------------------------------------

using recovery_promise = caf::typed_response_promise<messages::recovery_report>;

/// The first of `ids` that is not a registered agent, if any.
std::optional<std::string> missing_agent(const gateway_state& st,
                                         const std::vector<std::string>& ids) {
  for (const auto& id : ids)
    if (st.agents.count(id) == 0)
      return id;
  return std::nullopt;
}

/// Hands `x`, open in the store, back to its room (built again if it is a
/// pair's own room) with a barrier behind it, or says in `report` why it
/// cannot. One the gateway holds already (a later recovery of a cluster's
/// node, which reads every open negotiation it owns) is left as it is.
void resume(self_pointer self, messages::negotiation_record& x,
            messages::recovery_report& report) {
  auto& st = self->state;
  if (st.book.find(x.id) != nullptr)
    return;
  if (auto gone = missing_agent(st, {x.initiator, x.responder})) {
    report.skipped.push_back("negotiation " + x.id + ": agent \"" + *gone +
                             "\" is not registered");
    return;
  }
  auto room = st.rooms.find(x.room_id);
  if (room == st.rooms.end()) {
    if (x.room_id != pair_room_id(x.initiator, x.responder)) {
      report.skipped.push_back("negotiation " + x.id + ": room \"" + x.room_id +
                               "\" is not stored");
      return;
    }
    build_room(self, x.room_id, {x.initiator, x.responder});
    room = st.rooms.find(x.room_id);
  }
  room->second.active = x.id;
  st.book.restore(x);
  self->send(room->second.handle,
             messages::resume_negotiation{std::move(x), {}});
  self->send(room->second.handle,
             messages::barrier{++st.barriers_out, caf::actor_cast<subscriber_actor>(self)});
  ++report.negotiations;
}

void recover(self_pointer self, recovery_promise promise);

/// Answers the recovery that runs with `x`, then starts the next one asked
/// for, if any.
void answer_recovery(self_pointer self, caf::expected<messages::recovery_report> x) {
  auto& st = self->state;
  if (x)
    st.recovered.deliver(std::move(*x));
  else
    st.recovered.deliver(std::move(x.error()));
  st.recovering = false;
  if (st.queued.empty())
    return;
  auto next = std::move(st.queued.front());
  st.queued.pop_front();
  recover(self, std::move(next));
}

/// A barrier came back: once all are back, recovery is answered.
void on_barrier(self_pointer self) {
  auto& st = self->state;
  if (st.barriers_out == 0 || --st.barriers_out > 0 ||
      st.recovery.at != recovery_job::step::idle || !st.recovering)
    return;
  answer_recovery(self, std::move(st.report));
}

/// How many stored agents, rooms or open negotiations one page of a
/// recovery holds. The gateway asks the store for the next page only once
/// it handed this one on, so that a recovery holds a page at a time, not
/// the store;
/// between pages it handles other messages, an exit among them (serve's
/// SIGTERM during a long recovery).
constexpr std::int32_t recovery_page = 500;

/// The items of a page of open negotiations, and where the next one starts
/// (nowhere after the last).
std::vector<messages::negotiation_record>& items_of(messages::store_page& x) {
  return x.records;
}
std::string next_of(const messages::store_page& x) {
  return x.next_cursor;
}

/// The items of a page of agents or rooms, and where the next one starts:
/// after the last id of a full page; a shorter page is the last.
template <class T> std::vector<T>& items_of(std::vector<T>& x) {
  return x;
}
template <class T> std::string next_of(const std::vector<T>& x) {
  return x.size() < static_cast<std::size_t>(recovery_page) ? std::string{}
                                                            : x.back().id;
}

/// The store or the coordinator failed: recovery is answered with `err`.
void fail_recovery(self_pointer self, caf::error err) {
  auto& st = self->state;
  st.recovery = recovery_job{};
  answer_recovery(self, std::move(err));
}

void next_step(self_pointer self);

/// Asks the store (with `load`, the job's cursor and the page size) for the
/// current step's next page, hands each of its items on with `each`, then
/// asks for the page after it, or goes on with the next step after the
/// last.
template <class Page, class Each, class... Load>
void recover_pages(self_pointer self, Each each, Load... load) {
  auto& st = self->state;
  self->request(st.options.store, st.options.recovery_timeout, load...,
                st.recovery.cursor, recovery_page)
      .then(
          [self, each, load...](Page& page) {
            auto& st = self->state;
            for (auto& x : items_of(page))
              each(self, x, st.report);
            st.recovery.cursor = next_of(page);
            if (st.recovery.cursor.empty())
              next_step(self);
            else
              recover_pages<Page>(self, each, load...);
          },
          [self](caf::error& err) { fail_recovery(self, std::move(err)); });
}

/// Registers a stored agent again.
void recover_agent(self_pointer self, const messages::agent_spec& spec,
                   messages::recovery_report& report) {
  if (self->state.agents.count(spec.id) != 0)
    return;
  add_agent(self, spec);
  ++report.agents;
}

/// Builds a stored room whose agents are all registered.
void recover_room(self_pointer self, const messages::room_request& x,
                  messages::recovery_report& report) {
  auto& st = self->state;
  if (st.rooms.count(x.id) != 0)
    return;
  if (auto gone = missing_agent(st, x.members)) {
    report.skipped.push_back("room " + x.id + ": agent \"" + *gone +
                             "\" is not registered");
    return;
  }
  build_room(self, x.id, x.members);
  ++report.rooms;
}

/// Every item is handed on: recovery is answered once the barriers are back.
void finish_recovery(self_pointer self) {
  auto& st = self->state;
  st.recovery = recovery_job{};
  if (st.barriers_out == 0)
    answer_recovery(self, std::move(st.report));
}

/// Asks the store for the open channels' events and hands them to the
/// coordinator, which resumes them (the builder's `restore_answers` sees
/// them first), and counts its answer into the report.
void recover_channels(self_pointer self) {
  auto& st = self->state;
  self->request(st.options.store, st.options.recovery_timeout,
                messages::load_atom::value, messages::channel_atom::value)
      .then(
          [self](std::vector<messages::channel_event>& events) {
            auto& st = self->state;
            if (st.build.restore_answers)
              st.build.restore_answers(events);
            self->request(st.options.coordinator, st.options.recovery_timeout,
                          messages::resume_atom::value, std::move(events))
                .then(
                    [self](messages::recovery_report& x) {
                      auto& report = self->state.report;
                      report.channels += x.channels;
                      report.skipped.insert(report.skipped.end(), x.skipped.begin(),
                                            x.skipped.end());
                      finish_recovery(self);
                    },
                    [self](caf::error& err) { fail_recovery(self, std::move(err)); });
          },
          [self](caf::error& err) { fail_recovery(self, std::move(err)); });
}

/// Goes on with the step after the current one (after `idle`: the first):
/// agents, then rooms, then the open negotiations, page by page, then the
/// open channels; answers once every negotiation is handed to its room and
/// the coordinator (if any) resumed the channels.
void next_step(self_pointer self) {
  using step = recovery_job::step;
  auto& job = self->state.recovery;
  job.cursor.clear();
  switch (job.at) {
    case step::idle:
      job.at = step::agents;
      recover_pages<std::vector<messages::agent_spec>>(
          self, recover_agent, messages::load_atom::value, messages::agent_atom::value);
      return;
    case step::agents:
      job.at = step::rooms;
      recover_pages<std::vector<messages::room_request>>(
          self, recover_room, messages::load_atom::value, messages::room_atom::value);
      return;
    case step::rooms:
      job.at = step::negotiations;
      recover_pages<messages::store_page>(self, resume, messages::load_atom::value);
      return;
    case step::negotiations:
      if (!self->state.options.coordinator)
        break;
      job.at = step::channels;
      recover_channels(self);
      return;
    case step::channels:
      break;
  }
  finish_recovery(self);
}

/// Restores the store's agents and rooms and resumes its open negotiations
/// and channels, answering `promise`; after the recovery that runs, if one
/// does.
void recover(self_pointer self, recovery_promise promise) {
  auto& st = self->state;
  if (st.recovering) {
    st.queued.push_back(std::move(promise));
    return;
  }
  st.recovering = true;
  st.recovered = std::move(promise);
  st.report = {};
  st.recovery = recovery_job{};
  next_step(self);
}

caf::error room_exists(const std::string& id) {
  return api_error(error_code::already_exists, "room \"" + id + "\" already exists",
                   {{"field", "id"}, {"room_id", id}});
}

/// The error for the first member of `x` that is not registered; none when
/// all are.
caf::error missing_member(const gateway_state& st, const messages::room_request& x) {
  for (std::size_t i = 0; i < x.members.size(); ++i)
    if (st.agents.count(x.members[i]) == 0)
      return unknown_agent(x.members[i], "members[" + std::to_string(i) + "]");
  return {};
}

/// A change of the registered agents and rooms: with a store, asks it to
/// commit `xs...` first, then makes the change here with `apply` and
/// delivers what `apply` returns to `promise`, so that a 2xx never shows what a restart
/// would lose; when the store fails (or does not answer within
/// outcome_timeout), answers its error and changes nothing here. Meanwhile
/// `key` is in the `pending` set (when given): the id is taken. Without a
/// store, applies at once.
template <class T, class Apply, class... Ts>
void persist_into(self_pointer self, caf::typed_response_promise<T> promise,
                  std::set<std::string> gateway_state::*pending, const std::string& key,
                  Apply apply, const Ts&... xs) {
  auto& st = self->state;
  if (!st.options.store) {
    auto x = apply();
    if (x)
      promise.deliver(std::move(*x));
    else
      promise.deliver(std::move(x.error()));
    return;
  }
  if (pending != nullptr)
    (st.*pending).insert(key);
  auto release = [self, pending, key] {
    if (pending != nullptr)
      (self->state.*pending).erase(key);
  };
  self->request(st.options.store, st.options.outcome_timeout, xs...)
      .then(
          [promise, release, apply](bool) mutable {
            release();
            auto x = apply();
            if (x)
              promise.deliver(std::move(*x));
            else
              promise.deliver(std::move(x.error()));
          },
          [promise, release](caf::error& err) mutable {
            release();
            promise.deliver(std::move(err));
          });
}

/// Answers a request about the agents `ids` once they are learnt
/// (`learn_agents`): `answer` is given the promise to deliver.
template <class T, class Answer>
caf::result<T> with_agents(self_pointer self, std::vector<std::string> ids,
                           Answer answer) {
  auto promise = self->make_response_promise<T>();
  learn_agents(self, std::move(ids),
               [promise, answer = std::move(answer)](caf::error err) mutable {
                 if (err)
                   promise.deliver(std::move(err));
                 else
                   answer(promise);
               });
  return promise;
}

/// With `clustered`, the agents in the store (every node's), page by page
/// from `after`, added to `acc`; otherwise this node's.
void list_agents(self_pointer self,
                 caf::typed_response_promise<std::vector<messages::agent_spec>> promise,
                 std::vector<messages::agent_spec> acc, const std::string& after) {
  auto& st = self->state;
  if (!st.options.clustered || !st.options.store) {
    for (const auto& entry : st.agents)
      acc.push_back(entry.second.spec);
    promise.deliver(std::move(acc));
    return;
  }
  constexpr std::int32_t page = 10000;
  self->request(st.options.store, st.options.recovery_timeout,
                messages::load_atom::value, messages::agent_atom::value, after, page)
      .then(
          [self, promise,
           acc = std::move(acc)](std::vector<messages::agent_spec>& xs) mutable {
            auto last = xs.size() == static_cast<std::size_t>(page);
            acc.insert(acc.end(), std::make_move_iterator(xs.begin()),
                       std::make_move_iterator(xs.end()));
            if (last) {
              auto next = acc.back().id;
              list_agents(self, promise, std::move(acc), next);
            } else {
              promise.deliver(std::move(acc));
            }
          },
          [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
}

messages::room_view view_of(const gateway_state& st, const std::string& id,
                            const room_entry& room) {
  messages::room_view view;
  view.id = id;
  view.members = room.members;
  if (!room.active.empty())
    if (const auto* record = st.book.find(room.active))
      view.active = *record;
  return view;
}

gateway_actor::behavior_type gateway(self_pointer self, builder build,
                                     gateway_options options) {
  self->state.build = std::move(build);
  self->state.options = options;
  self->state.book = ledger{options.ended_limit};
  // A relay of another node went down: its node was lost.
  self->set_down_handler([self](caf::down_msg& x) {
    self->state.relays.lose(x.source, "its node was lost");
  });
  // A lost node's negotiations are found in the store again (a survivor
  // takes them over).
  self->state.relays.on_lose(
      [self](const std::string& address) { self->state.owners.forget_node(address); });
  return {
      [self](caf::put_atom,
             messages::agent_spec& spec) -> caf::result<messages::agent_spec> {
        // In a cluster, learnt first: the id may be taken through another node.
        return with_agents<messages::agent_spec>(
            self, {spec.id}, [self, spec](auto promise) {
              auto& st = self->state;
              if (st.agents.count(spec.id) != 0 ||
                  st.agents_pending.count(spec.id) != 0) {
                promise.deliver(
                    api_error(error_code::already_exists,
                              "agent \"" + spec.id + "\" is already registered",
                              {{"field", "id"}, {"agent_id", spec.id}}));
                return;
              }
              persist_into(
                  self, promise, &gateway_state::agents_pending, spec.id,
                  [self, spec]() -> caf::expected<messages::agent_spec> {
                    return add_agent(self, spec);
                  },
                  caf::put_atom::value, spec);
            });
      },
      [self](caf::get_atom, messages::agent_atom,
             const std::string& id) -> caf::result<messages::agent_spec> {
        return with_agents<messages::agent_spec>(self, {id}, [self, id](auto promise) {
          auto i = self->state.agents.find(id);
          if (i == self->state.agents.end())
            promise.deliver(unknown_agent(id, "id"));
          else
            promise.deliver(i->second.spec);
        });
      },
      [self](messages::list_atom, messages::agent_atom) {
        auto promise = self->make_response_promise<std::vector<messages::agent_spec>>();
        list_agents(self, promise, {}, "");
        return promise;
      },
      [self](caf::delete_atom, messages::agent_atom,
             const std::string& id) -> caf::result<messages::agent_spec> {
        return with_agents<messages::agent_spec>(self, {id}, [self, id](auto promise) {
          if (self->state.agents.count(id) == 0) {
            promise.deliver(unknown_agent(id, "id"));
            return;
          }
          persist_into(
              self, promise, nullptr, id,
              [self, id]() -> caf::expected<messages::agent_spec> {
                // Looked up again: another delete may have come first.
                auto i = self->state.agents.find(id);
                if (i == self->state.agents.end())
                  return unknown_agent(id, "id");
                auto spec = std::move(i->second.spec);
                self->send_exit(i->second.handle, caf::exit_reason::user_shutdown);
                self->state.agents.erase(i);
                return spec;
              },
              caf::delete_atom::value, messages::agent_atom::value, id);
        });
      },
      [self](caf::put_atom,
             const messages::room_request& x) -> caf::result<messages::room_view> {
        return with_agents<messages::room_view>(
            self, x.members, [self, x](auto promise) {
              auto& st = self->state;
              if (st.rooms.count(x.id) != 0 || st.rooms_pending.count(x.id) != 0) {
                promise.deliver(room_exists(x.id));
                return;
              }
              if (auto missing = missing_member(st, x)) {
                promise.deliver(std::move(missing));
                return;
              }
              persist_into(
                  self, promise, &gateway_state::rooms_pending, x.id,
                  [self, x]() -> caf::expected<messages::room_view> {
                    // Checked again: while the store wrote, a member may have been
                    // deleted, or `open` built a pair room of that id.
                    auto& st = self->state;
                    if (st.rooms.count(x.id) != 0)
                      return room_exists(x.id);
                    if (auto missing = missing_member(st, x))
                      return missing;
                    return view_of(st, x.id, build_room(self, x.id, x.members));
                  },
                  caf::put_atom::value, x);
            });
      },
      [self](caf::get_atom, messages::room_atom,
             const std::string& id) -> caf::result<messages::room_view> {
        auto& st = self->state;
        auto i = st.rooms.find(id);
        if (i == st.rooms.end())
          return api_error(error_code::room_not_found, "no room \"" + id + "\"",
                           {{"room_id", id}});
        auto promise = self->make_response_promise<messages::room_view>();
        auto view = view_of(st, id, i->second);
        self->request(i->second.handle, st.options.outcome_timeout,
                      messages::history_atom::value)
            .then(
                [promise,
                 view](std::vector<messages::negotiation_record>& history) mutable {
                  view.history = std::move(history);
                  promise.deliver(std::move(view));
                },
                [promise](const caf::error&) mutable { promise.deliver(too_slow()); });
        return promise;
      },
      [self](caf::put_atom, const std::string& room_id,
             messages::start_negotiation& x) { return open(self, room_id, x); },
      [self](messages::place_atom, const std::string& room_id,
             messages::start_negotiation& x) {
        auto promise = self->make_response_promise<messages::negotiation_record>();
        open_here(self, promise, room_id, std::move(x));
        return promise;
      },
      [self](messages::agent_counter& x) { return move(self, x, false); },
      [self](messages::agent_accept& x) { return move(self, x, false); },
      [self](messages::agent_reject& x) { return move(self, x, false); },
      [self](messages::relayed_atom, messages::agent_counter& x) {
        return move(self, x, true);
      },
      [self](messages::relayed_atom, messages::agent_accept& x) {
        return move(self, x, true);
      },
      [self](messages::relayed_atom, messages::agent_reject& x) {
        return move(self, x, true);
      },
      [self](caf::get_atom, const std::string& id) {
        return committed_record(self, id);
      },
      [self](messages::list_atom, messages::turns_atom, const std::string& agent)
          -> caf::result<std::vector<messages::negotiation_record>> {
        return with_agents<std::vector<messages::negotiation_record>>(
            self, {agent}, [self, agent](auto promise) {
              if (self->state.agents.count(agent) == 0)
                promise.deliver(unknown_agent(agent, "id"));
              else
                promise.deliver(self->state.book.awaiting(agent));
            });
      },
      [self](messages::recover_atom) -> caf::result<messages::recovery_report> {
        if (!self->state.options.store)
          return messages::recovery_report{};
        auto promise = self->make_response_promise<messages::recovery_report>();
        recover(self, promise);
        return promise;
      },
      [self](caf::timeout_atom) { on_timer(self); },
      [self](const messages::negotiation_event& x) { on_event(self, x); },
      [self](const messages::problem_event& x) { on_problem(self, x); },
      [](const messages::agent_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      // Subscribed to the bilateral topics only (spawn_gateway): the API has no
      // channel resources yet.
      [](const messages::channel_event&) {},
      [self](const messages::barrier&) { on_barrier(self); },
  };
}

} // namespace

gateway_actor spawn_gateway(caf::actor_system& sys, builder build,
                            const messages::event_sink& events,
                            gateway_options options) {
  auto self = sys.spawn(gateway, std::move(build), options);
  events.subscribe(messages::lifecycle_topics | messages::problem_topics, self);
  return self;
}

} // namespace parley::actors::gateway
