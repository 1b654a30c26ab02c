#include "actors/store/actor.hpp"

#include <algorithm>
#include <iostream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "caf/actor_clock.hpp"
#include "caf/actor_system.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/store/batch.hpp"
#include "actors/store/intake.hpp"
#include "actors/store/query.hpp"
#include "actors/store/registry.hpp"
#include "actors/store/stored_demand.hpp"
#include "actors/store/seed_state.hpp"
#include "actors/store/writer.hpp"
#include "messages/commands.hpp"
#include "messages/consensus.hpp"
#include "messages/json_reader.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::store {

namespace {

using messages::error_code;

/// A `sync` waiting for its record: at least `rounds` rounds, and its end
/// when `ended`.
struct waiter {
  std::int32_t rounds = 0;
  bool ended = false;
  caf::typed_response_promise<std::int32_t> promise;
  caf::actor_clock::time_point deadline;
};

/// What is committed of an open negotiation.
struct progress {
  std::int32_t rounds = 0;
  bool terminal = false;
};

/// A negotiation in the batch being written, and what it will have then.
struct in_flight_op {
  std::string id;
  std::int32_t round_count = 0;
  bool terminal = false;
};

/// How long the writer waits before it writes a failed batch again, at
/// first and at most (doubling in between).
constexpr std::chrono::milliseconds first_retry_delay{50};
constexpr std::chrono::milliseconds last_retry_delay{2000};

struct store_state {
  static inline const char* name = "parley.store";
  /// Reads (get, query, stats, sync's look-ups) and maintenance; the writer
  /// has a connection of its own.
  std::shared_ptr<backend> db;
  std::unique_ptr<writer> out;
  store_options options;
  /// Where the negotiation events wait until this actor takes them.
  intake_actor intake;
  /// Whether the intake told of events not taken yet.
  bool intake_has_events = false;
  /// Whether a take, to be committed when it arrives, is on its way.
  bool taking = false;
  /// The emptied vector of the last take, for the intake to fill next.
  std::vector<messages::negotiation_event> spare;
  batch pending;
  /// The channels followed, and their events heard since the last commit.
  channel_book channels;
  bool commit_sent = false;
  /// The batch the writer has in hand: its negotiations, events, and the
  /// flushes that wait for it.
  bool writing = false;
  std::vector<in_flight_op> in_flight;
  std::int64_t in_flight_events = 0;
  std::vector<caf::typed_response_promise<std::int64_t>> in_flight_flushes;
  /// Whether a sweep for overdue syncs is due at `next_sweep`.
  bool sweep_armed = false;
  caf::actor_clock::time_point next_sweep;
  /// Open negotiations this store wrote (terminal ones leave).
  std::unordered_map<std::string, progress> committed;
  std::unordered_map<std::string, std::vector<waiter>> waiters;
  std::vector<caf::typed_response_promise<std::int64_t>> flushes;
  std::int64_t events_committed = 0;
  std::int64_t failed_commits = 0;
  /// While the writer holds a failed batch: when it may try it again, and
  /// how long it waits after the next failure.
  caf::actor_clock::time_point retry_at;
  std::chrono::milliseconds retry_delay = first_retry_delay;
  /// Why the batch the writer holds failed; empty while it holds none.
  std::string last_failure;
};

using store_pointer = store_actor::stateful_pointer<store_state>;

caf::error store_failure(const std::string& what) {
  return messages::make_error(error_code::store_failed, what);
}

/// Runs `f` against the database; turns what it throws into a coded error.
template <class T, class F> caf::result<T> guarded(F f) {
  try {
    return f();
  } catch (const query_error& e) {
    return messages::make_error(error_code::invalid_request, e.what());
  } catch (const store_error& e) {
    return store_failure(e.what());
  } catch (const messages::json_error& e) {
    return store_failure(std::string{"a stored record is malformed: "} + e.what());
  } catch (const std::exception& e) {
    return store_failure(e.what());
  }
}

void send_commit(store_pointer self) {
  if (!self->state.commit_sent) {
    self->state.commit_sent = true;
    self->send(self, messages::commit_atom::value);
  }
}

/// Schedules a sweep for overdue syncs: a `commit` after a quarter of the
/// sync timeout (every `commit` before then skips the sweep).
void arm_sweep(store_pointer self) {
  auto& st = self->state;
  auto interval = st.options.sync_timeout / 4 + std::chrono::milliseconds{1};
  st.sweep_armed = true;
  st.next_sweep = self->clock().now() + interval / 2;
  self->delayed_send(self, interval, messages::commit_atom::value);
}

/// Fails the syncs whose deadline passed; re-arms while any wait.
void sweep(store_pointer self) {
  auto& st = self->state;
  auto now = self->clock().now();
  st.sweep_armed = false;
  for (auto i = st.waiters.begin(); i != st.waiters.end();) {
    auto& ws = i->second;
    for (auto j = ws.begin(); j != ws.end();) {
      if (j->deadline <= now) {
        j->promise.deliver(store_failure("negotiation " + i->first + " has no record with " +
                                         std::to_string(j->rounds) +
                                         " rounds committed within the sync timeout"));
        j = ws.erase(j);
      } else {
        ++j;
      }
    }
    i = ws.empty() ? st.waiters.erase(i) : std::next(i);
  }
  if (!st.waiters.empty())
    arm_sweep(self);
}

/// Answers the syncs of `id` that `p` satisfies.
void resolve(store_pointer self, const std::string& id, const progress& p) {
  auto& st = self->state;
  auto i = st.waiters.find(id);
  if (i == st.waiters.end())
    return;
  auto& ws = i->second;
  for (auto j = ws.begin(); j != ws.end();) {
    if (p.terminal || (!j->ended && p.rounds >= j->rounds)) {
      j->promise.deliver(p.rounds);
      j = ws.erase(j);
    } else {
      ++j;
    }
  }
  if (ws.empty())
    st.waiters.erase(i);
}

/// Fails every waiting sync with `failure`: nothing commits before the batch
/// that failed, so none of them would be answered before it is written again.
void fail_waiters(store_pointer self, const std::string& failure) {
  auto& st = self->state;
  for (auto& item : st.waiters)
    for (auto& w : item.second)
      w.promise.deliver(store_failure("negotiation " + item.first +
                                      " is not committed: the store cannot commit (" +
                                      failure + ")"));
  st.waiters.clear();
}

/// Folds negotiation event `x` into the pending batch.
void fold(store_pointer self, const messages::negotiation_event& x) {
  auto& st = self->state;
  auto skipped = st.pending.skipped();
  st.pending.add(x);
  if (skipped == 0 && st.pending.skipped() == 1)
    std::cerr << "parley store: negotiation id \"" << x.negotiation_id
              << "\" is not a lower-case UUID; its events (and any like it) "
                 "are not stored\n";
}

/// Takes the events the intake kept, folds them in, then runs `next`. The
/// intake answers at once; a take that fails (the intake is gone) is logged
/// and `next` runs on what there is.
template <class F> void take_from_intake(store_pointer self, F next) {
  auto& st = self->state;
  st.intake_has_events = false;
  if (!st.intake) {
    next();
    return;
  }
  self->request(st.intake, st.options.sync_timeout, messages::events_atom::value,
                std::move(st.spare))
      .then(
          [self, next](std::vector<messages::negotiation_event>& xs) mutable {
            for (const auto& x : xs)
              fold(self, x);
            xs.clear();
            self->state.spare = std::move(xs);
            next();
          },
          [self, next](caf::error& err) mutable {
            std::cerr << "parley store: its intake did not hand over its events: "
                      << self->system().render(err) << '\n';
            next();
          });
}

void commit(store_pointer self);

/// Takes what the intake told of and commits it, unless a take is on its
/// way already.
void take_and_commit(store_pointer self) {
  auto& st = self->state;
  if (st.taking)
    return;
  st.taking = true;
  take_from_intake(self, [self] {
    self->state.taking = false;
    commit(self);
  });
}

/// Hands the pending batch to the writer, if it is idle; with nothing
/// pending and nothing in hand, answers the flushes.
void commit(store_pointer self) {
  auto& st = self->state;
  st.commit_sent = false;
  if (st.writing)
    return; // the batch grows until the writer reports
  if (!st.last_failure.empty()) {
    // Before anything later: a later batch may update rows only it inserts.
    // Until then, the pending batch grows.
    if (self->clock().now() < st.retry_at)
      return; // a commit is on its way for then
    st.writing = true;
    st.out->retry();
    return;
  }
  if (st.pending.empty() && st.channels.empty()) {
    for (auto& rp : st.flushes)
      rp.deliver(st.events_committed);
    st.flushes.clear();
    return;
  }
  st.in_flight_events =
      static_cast<std::int64_t>(st.pending.events() + st.channels.events());
  auto ops = st.pending.take();
  st.in_flight.clear();
  st.in_flight.reserve(ops.size());
  for (const auto& op : ops)
    st.in_flight.push_back({op.row.id, op.round_count, op.terminal});
  st.in_flight_flushes = std::move(st.flushes);
  st.flushes.clear();
  st.writing = true;
  st.out->submit({std::move(ops), st.channels.take()});
}

/// The writer reports the batch in hand: answers whoever waited for it,
/// then hands over what arrived meanwhile.
void committed(store_pointer self, const std::string& failure) {
  auto& st = self->state;
  st.writing = false;
  auto flushes = std::move(st.in_flight_flushes);
  st.in_flight_flushes.clear();
  if (!failure.empty()) {
    // The writer keeps the batch and writes it again after a pause; the syncs
    // and flushes waiting learn why at once (nothing after it commits before
    // it does), and new ones are refused until it is written.
    ++st.failed_commits;
    st.last_failure = failure;
    std::cerr << "parley store: a transaction of " << st.in_flight.size()
              << " negotiations failed (retrying in " << st.retry_delay.count()
              << " ms): " << failure << '\n';
    for (auto& rp : flushes)
      rp.deliver(store_failure(failure));
    for (auto& rp : st.flushes)
      rp.deliver(store_failure(failure));
    st.flushes.clear();
    fail_waiters(self, failure);
    st.retry_at = self->clock().now() + st.retry_delay;
    self->delayed_send(self, st.retry_delay, messages::commit_atom::value);
    st.retry_delay = std::min(st.retry_delay * 2, last_retry_delay);
    return;
  }
  st.retry_delay = first_retry_delay;
  st.last_failure.clear();
  st.events_committed += st.in_flight_events;
  for (const auto& op : st.in_flight) {
    if (op.terminal) {
      // Ended: nothing to follow (most ops of a load test end so).
      if (!st.waiters.empty())
        resolve(self, op.id, progress{op.round_count, true});
      if (!st.committed.empty())
        st.committed.erase(op.id);
      continue;
    }
    auto& p = st.committed[op.id];
    p.rounds = std::max(p.rounds, op.round_count);
    resolve(self, op.id, p);
  }
  for (auto& rp : flushes)
    rp.deliver(st.events_committed);
  st.in_flight.clear();
  if (st.intake_has_events) {
    // What the intake kept meanwhile joins the next batch.
    take_and_commit(self);
    return;
  }
  // Behind whatever is in the mailbox now, so that it joins the batch.
  if (!st.pending.empty() || !st.channels.empty() || !st.flushes.empty())
    send_commit(self);
}

/// Answers `rp` once every event taken so far is committed.
void flush_taken(store_pointer self, caf::typed_response_promise<std::int64_t> rp) {
  auto& st = self->state;
  if (!st.writing && !st.last_failure.empty()) {
    rp.deliver(store_failure(st.last_failure)); // until it is written again
    return;
  }
  auto idle = st.pending.empty() && st.channels.empty();
  if (idle && !st.writing) {
    rp.deliver(st.events_committed);
    return;
  }
  if (idle) {
    st.in_flight_flushes.push_back(rp);
  } else {
    st.flushes.push_back(rp);
    send_commit(self);
  }
}

/// Throws while the store cannot commit because its file was deleted or
/// replaced: its reading connection still reads that file, which holds
/// commits that failed (written, then found lost), so no read answers from
/// it. Looked up only while a commit is failing.
void refuse_lost_reads(store_pointer self) {
  auto& st = self->state;
  if (st.last_failure.empty())
    return;
  if (const auto& lost = st.db->file_lost(); !lost.empty())
    throw store_error(lost);
}

/// Answers once negotiation `id`'s record with at least `rounds` rounds (and
/// its end, when `ended`) is committed; E028 at once while the store cannot
/// commit, or after the sync timeout.
caf::result<std::int32_t> sync(store_pointer self, const std::string& id,
                               std::int32_t rounds, bool ended) {
  auto& st = self->state;
  auto enough = [&](bool terminal, std::int32_t have) {
    return terminal || (!ended && have >= rounds);
  };
  if (auto i = st.committed.find(id); i != st.committed.end()) {
    if (enough(i->second.terminal, i->second.rounds))
      return i->second.rounds;
  } else if (!st.pending.contains(id) &&
             std::none_of(st.in_flight.begin(), st.in_flight.end(),
                          [&](const in_flight_op& x) { return x.id == id; })) {
    // Not written by this store yet, or long ago: the database knows.
    negotiation_row row;
    bool found = false;
    try {
      refuse_lost_reads(self);
      found = st.db->get(id, row);
    } catch (const std::exception& e) {
      return store_failure(e.what());
    }
    seed_state state;
    if (found && from_string(row.state, state)) {
      auto stored = static_cast<std::int32_t>(row.rounds.size());
      if (enough(is_terminal(state), stored))
        return stored;
    }
  }
  if (!st.last_failure.empty())
    return store_failure("negotiation " + id +
                         " is not committed: the store cannot commit (" +
                         st.last_failure + ")");
  // Its event is on the way: answer after the commit that writes it.
  auto rp = self->make_response_promise<std::int32_t>();
  st.waiters[id].push_back(
      waiter{rounds, ended, rp, self->clock().now() + st.options.sync_timeout});
  if (!st.sweep_armed)
    arm_sweep(self);
  return rp;
}

/// Why the store is not ready (empty: it is): its database does not answer
/// a small read, its last commit failed (and none succeeded since), or a
/// look without writing finds that it could not write (backend::
/// cannot_write: a few system calls, or one query).
std::string readiness(store_pointer self) {
  auto& st = self->state;
  try {
    st.db->applied_version();
  } catch (const std::exception& e) {
    return std::string{"cannot be read: "} + e.what();
  }
  if (!st.last_failure.empty())
    return "cannot commit: its last transaction failed (" + st.last_failure + ")";
  try {
    if (auto why = st.db->cannot_write(); !why.empty())
      return "cannot write: " + why;
  } catch (const std::exception& e) {
    return std::string{"cannot be read: "} + e.what();
  }
  return {};
}

std::vector<messages::negotiation_record> to_records(const std::vector<negotiation_row>& rows) {
  std::vector<messages::negotiation_record> out;
  out.reserve(rows.size());
  for (const auto& row : rows)
    out.push_back(from_row(row));
  return out;
}

// -- the channels of migrations 003 and 004 ------------------------------------

/// Folds a channel event into the next commit. A channel not followed yet
/// (the store restarted since its last event) is first restored from its
/// stored events, so that its row and its events' numbers go on from them;
/// a channel.created begins a channel, which has none.
void on_channel_event(store_pointer self, const messages::channel_event& x) {
  auto& st = self->state;
  if (!x.channel_id.empty() && x.kind != messages::channel_event_kind::created &&
      !st.channels.knows(x.channel_id)) {
    try {
      st.channels.restore(x.channel_id, st.db->channel_events(x.channel_id));
    } catch (const std::exception& e) {
      std::cerr << "parley store: channel " << x.channel_id
                << "'s stored events cannot be read (" << e.what()
                << "); its row starts again from this event\n";
    }
  }
  if (st.channels.add(x))
    send_commit(self);
}

/// Channel `x`'s record as its committed events have it (its stored row
/// lags behind an open channel's offers and feedback, channel_book.hpp).
messages::channel_record current(backend& db, messages::channel_record x) {
  if (ended(x))
    return x;
  auto events = db.channel_events(x.channel_id);
  return current_record(std::move(x), events);
}

// -- the agents and rooms of migration 002 -----------------------------------

/// Runs `write` (one statement on migration 002's tables, on the store's
/// thread and its reading connection) once every negotiation event received
/// before it is committed: the store flushes to itself first. So an agent's
/// row changes after the rows of every negotiation it was heard in before;
/// the writer never waits for it. Answers what `write` returns, or E028:
/// when a batch before it failed (the store cannot commit now, and nothing
/// commits out of order), when it fails, or when it went into a store file
/// that was deleted or replaced meanwhile.
template <class F> caf::result<bool> after_flush(store_pointer self, F write) {
  auto rp = self->make_response_promise<bool>();
  self->request(caf::actor_cast<store_actor>(self), caf::infinite,
                messages::flush_atom::value)
      .then(
          [self, rp, write](std::int64_t) mutable {
            try {
              auto result = write();
              if (auto lost = self->state.db->file_lost(); !lost.empty())
                rp.deliver(store_failure(lost));
              else
                rp.deliver(result);
            } catch (const std::exception& e) {
              rp.deliver(store_failure(e.what()));
            }
          },
          [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
  return rp;
}

/// Writes (or replaces) `row` of `kind`'s table, after a flush.
caf::result<bool> put_row(store_pointer self, registry kind, registry_row row) {
  if (row.id.empty())
    return messages::make_error(error_code::invalid_request,
                                std::string{"the store keeps no "} +
                                    (kind == registry::agents ? "agent" : "room") +
                                    " without an id");
  return after_flush(self, [self, kind, row = std::move(row)] {
    self->state.db->put_entry(kind, row);
    return true;
  });
}

// -- crash recovery's pages ------------------------------------------------------

/// The most a page of crash recovery may hold: each page is read, converted
/// and sent whole, so this bounds what one load holds at once.
constexpr std::int32_t max_load_page = 10000;

/// A refusal of a page size outside 1..max_load_page, or none.
caf::error bad_page_size(std::int32_t limit) {
  if (limit >= 1 && limit <= max_load_page)
    return {};
  return messages::make_error(error_code::invalid_request,
                              "a page holds 1 to " + std::to_string(max_load_page) +
                                  " items, not " + std::to_string(limit));
}

/// The page of `kind`'s rows with an id above `after`, at most `limit`, as
/// what `of` makes of them.
template <class T>
caf::result<std::vector<T>> load_page(store_pointer self, registry kind,
                                      T (*of)(const registry_row&),
                                      const std::string& after, std::int32_t limit) {
  if (auto refused = bad_page_size(limit))
    return refused;
  return guarded<std::vector<T>>([&] {
    std::vector<T> out;
    for (const auto& row : self->state.db->load_entries(kind, after, limit))
      out.push_back(of(row));
    return out;
  });
}

/// The page of open negotiations after `cursor`, at most `limit`, with the
/// cursor of the next one (none after the last).
caf::result<messages::store_page>
load_open_page(store_pointer self, const std::string& cursor, std::int32_t limit) {
  if (auto refused = bad_page_size(limit))
    return refused;
  return guarded<messages::store_page>([&] {
    auto rows = self->state.db->load_open(cursor, limit);
    messages::store_page page;
    if (rows.size() > static_cast<std::size_t>(limit)) {
      rows.resize(static_cast<std::size_t>(limit));
      page.next_cursor = cursor_after(rows.back().expires_at, rows.back().id);
    }
    page.records = to_records(rows);
    return page;
  });
}

store_actor::behavior_type store_behavior(store_pointer self, std::shared_ptr<backend> db,
                                          std::shared_ptr<backend> write_db,
                                          store_options options) {
  auto& st = self->state;
  st.db = std::move(db);
  st.options = options;
  // The writer reports to this actor; its thread ends with the state.
  auto handle = caf::actor_cast<caf::actor>(self);
  auto weak = caf::actor_cast<caf::weak_actor_ptr>(handle);
  st.out = std::make_unique<writer>(
      std::move(write_db),
      [weak](std::string failure) {
        if (auto strong = caf::actor_cast<caf::actor>(weak.lock()))
          caf::anon_send(caf::actor_cast<store_actor>(strong), messages::commit_atom::value,
                         std::move(failure));
      },
      options.metrics,
      [weak] {
        if (auto strong = caf::actor_cast<caf::actor>(weak.lock()))
          caf::anon_send(caf::actor_cast<store_actor>(strong), idle_atom::value);
      });
  return {
      // The bus's negotiation events come through the intake; one sent to
      // the store itself is folded the same way.
      [self](const messages::negotiation_event& x) {
        fold(self, x);
        send_commit(self);
      },
      [self](intake_actor intake) {
        // The intake lives and dies with the store.
        self->link_to(intake);
        self->state.intake = std::move(intake);
      },
      [self](messages::events_atom) {
        auto& st = self->state;
        st.intake_has_events = true;
        if (!st.writing)
          take_and_commit(self);
      },
      [](const messages::problem_event&) {},
      [](const messages::agent_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      [self](const messages::channel_event& x) { on_channel_event(self, x); },
      [](const messages::barrier&) {},
      [self](messages::sync_atom, const std::string& id, std::int32_t rounds) {
        return sync(self, id, rounds, false);
      },
      [self](messages::sync_atom, const std::string& id, std::int32_t rounds,
             bool ended) { return sync(self, id, rounds, ended); },
      [self](messages::get_atom,
             const std::string& id) -> caf::result<messages::negotiation_record> {
        return guarded<messages::negotiation_record>(
            [&]() -> caf::result<messages::negotiation_record> {
              refuse_lost_reads(self);
              negotiation_row row;
              if (!self->state.db->get(id, row))
                return messages::make_error(error_code::negotiation_not_found,
                                            "no negotiation " + id + " in the store");
              return from_row(row);
            });
      },
      [self](messages::owner_atom, const std::string& id) {
        return guarded<std::string>([&] { return self->state.db->owner_address(id); });
      },
      [self](messages::owner_atom, messages::channel_atom, const std::string& id) {
        return guarded<std::string>(
            [&] { return self->state.db->channel_owner_address(id); });
      },
      [self](messages::query_atom, const messages::store_query& q) {
        return guarded<messages::store_page>([&] {
          refuse_lost_reads(self);
          auto limit = static_cast<std::size_t>(limit_of(q));
          auto rows = self->state.db->query(q);
          messages::store_page page;
          if (rows.size() > limit) {
            rows.resize(limit);
            page.next_cursor = cursor_after(rows.back().created_at, rows.back().id);
          }
          page.records = to_records(rows);
          return page;
        });
      },
      [self](messages::stats_atom) {
        return guarded<messages::store_stats>(
            [&] { return self->state.db->stats(self->state.options.top_converging); });
      },
      [self](messages::expire_atom) {
        return guarded<std::int64_t>([&] { return self->state.db->expire(); });
      },
      [self](messages::archive_atom, std::int32_t days) -> caf::result<std::int64_t> {
        if (days < 0)
          return messages::make_error(error_code::invalid_request,
                                      "archive age must be at least 0 days");
        return guarded<std::int64_t>([&] { return self->state.db->archive(days); });
      },
      [self](messages::load_atom, const std::string& cursor, std::int32_t limit) {
        return load_open_page(self, cursor, limit);
      },
      [self](messages::ping_atom) { return readiness(self); },
      [self](messages::flush_atom) -> caf::result<std::int64_t> {
        // The intake holds every event it heard before this flush was sent:
        // they are taken first.
        auto rp = self->make_response_promise<std::int64_t>();
        take_from_intake(self, [self, rp]() mutable { flush_taken(self, rp); });
        return rp;
      },
      [self](messages::done_atom) {
        take_from_intake(self, [self] {
          auto& st = self->state;
          auto failure = st.out->finish({st.pending.take(), st.channels.take()});
          if (!failure.empty())
            std::cerr << "parley store: the last transaction failed: " << failure
                      << '\n';
          self->send_exit(st.intake, caf::exit_reason::user_shutdown);
          self->quit();
        });
      },
      [self](messages::commit_atom, const std::string& failure) {
        committed(self, failure);
      },
      // The writer has been idle for a while (a load is over): the reader's
      // page cache goes back too (its look-ups for `sync` and `get` filled it).
      [self](idle_atom) { self->state.db->release_memory(); },
      [self](messages::commit_atom) {
        commit(self);
        auto& st = self->state;
        if (st.sweep_armed && self->clock().now() >= st.next_sweep)
          sweep(self);
      },
      [self](caf::put_atom, const messages::agent_spec& x) {
        return put_row(self, registry::agents, agent_row(x));
      },
      [self](messages::get_atom, messages::agent_atom,
             const std::vector<std::string>& ids) {
        return guarded<std::vector<messages::agent_spec>>([&] {
          std::vector<messages::agent_spec> found;
          registry_row row;
          for (const auto& id : ids)
            if (self->state.db->get_entry(registry::agents, id, row))
              found.push_back(agent_of(row));
          return found;
        });
      },
      [self](caf::delete_atom, messages::agent_atom, const std::string& id) {
        return after_flush(
            self, [self, id] { return self->state.db->delete_entry(registry::agents, id); });
      },
      [self](caf::put_atom, const messages::room_request& x) {
        return put_row(self, registry::rooms, room_row(x));
      },
      [self](caf::put_atom, const messages::demand_view& x) {
        return put_row(self, registry::demands, demand_row(x));
      },
      [self](messages::get_atom, messages::demand_atom,
             const std::string& id) -> caf::result<messages::demand_view> {
        return guarded<messages::demand_view>(
            [&]() -> caf::result<messages::demand_view> {
              auto& db = *self->state.db;
              registry_row row;
              auto found = db.get_entry(registry::demands, id, row);
              auto channels = db.demand_channels(id);
              if (!found && channels.empty())
                return messages::make_error(error_code::demand_not_found,
                                            "no demand " + id);
              for (auto& x : channels)
                x = current(db, std::move(x));
              return stored_demand(id, found ? demand_of(row) : messages::demand_view{},
                                   channels);
            });
      },
      [self](messages::load_atom, messages::agent_atom, const std::string& after,
             std::int32_t limit) {
        return load_page(self, registry::agents, agent_of, after, limit);
      },
      [self](messages::load_atom, messages::room_atom, const std::string& after,
             std::int32_t limit) {
        return load_page(self, registry::rooms, room_of, after, limit);
      },
      [self](messages::get_atom, messages::channel_atom,
             const std::string& id) -> caf::result<messages::channel_record> {
        return guarded<messages::channel_record>(
            [&]() -> caf::result<messages::channel_record> {
              messages::channel_record x;
              if (!self->state.db->get_channel(id, x))
                return messages::make_error(error_code::channel_not_found,
                                            "no channel " + id + " in the store");
              return current(*self->state.db, std::move(x));
            });
      },
      [self](messages::list_atom, messages::channel_atom,
             const std::string& demand_id) {
        return guarded<std::vector<messages::channel_record>>([&] {
          auto& db = *self->state.db;
          auto rows = db.demand_channels(demand_id);
          for (auto& x : rows)
            x = current(db, std::move(x));
          return rows;
        });
      },
      [self](messages::load_atom, messages::channel_atom) {
        return guarded<std::vector<messages::channel_event>>(
            [&] { return self->state.db->open_channel_events(); });
      },
      [self](messages::load_atom, messages::channel_atom, const std::string& id) {
        return guarded<std::vector<messages::channel_event>>(
            [&] { return self->state.db->channel_events(id); });
      },
  };
}

} // namespace

store_actor spawn_store(caf::actor_system& sys, const store_url& url,
                        const messages::event_sink& events, store_options options) {
  // Two connections: the writer's, which migrates, and the reader's. A spawn
  // argument must be copyable: they travel as shared_ptrs.
  std::shared_ptr<backend> write_db = open_migrated(url);
  std::shared_ptr<backend> read_db = open_backend(url);
  if (options.fence) {
    write_db->fence_with(options.fence);
    read_db->fence_with(options.fence);
  }
  auto store = sys.spawn<caf::detached>(store_behavior, std::move(read_db),
                                        std::move(write_db), options);
  auto intake = spawn_intake(sys, store);
  // Before any event can reach the intake, or anyone else the store.
  caf::anon_send(store, intake);
  events.subscribe(messages::topic_set::matching("negotiation.*"), intake,
                   options.settle.count());
  events.subscribe(messages::channel_topics, store);
  return store;
}

std::unique_ptr<backend> open_migrated(const store_url& url) {
  auto db = open_backend(url);
  db->migrate();
  return db;
}

} // namespace parley::actors::store
