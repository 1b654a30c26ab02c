#include "cluster/event_exchange.hpp"

#include <map>
#include <set>
#include <utility>
#include <vector>

#include "caf/actor_system.hpp"
#include "caf/node_id.hpp"
#include "caf/system_messages.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/node_address.hpp"
#include "cluster/event_rules.hpp"
#include "messages/cluster_event.hpp"
#include "messages/handles/move_relay.hpp"
#include "messages/topic.hpp"

namespace parley::cluster {

namespace {

/// Another live member: the connection to its move relay (none while
/// connecting or after it was lost) and the events it has not taken yet.
struct peer_link {
  explicit peer_link(std::size_t limit) : outbox(limit) {}

  actors::move_relay_actor relay;
  bool connecting = false;
  /// The connection's number: an answer that comes through an earlier,
  /// lost one is ignored.
  std::uint64_t generation = 0;
  event_outbox outbox;
};

struct exchange_state {
  static inline const char* name = "parley.cluster.events";
  event_exchange_options opts;
  /// The last sequence number given to an event of this node.
  std::uint64_t sequence = 0;
  std::uint64_t generations = 0;
  /// By node address.
  std::map<std::string, peer_link> peers;
  event_origins origins{0};
};

using exchange_pointer = actors::event_exchange_actor::stateful_pointer<exchange_state>;

/// The link to the peer at `address`, when it is still the connection
/// `generation`.
peer_link* link_of(exchange_pointer self, const std::string& address,
                   std::uint64_t generation) {
  auto i = self->state.peers.find(address);
  if (i == self->state.peers.end() || i->second.generation != generation)
    return nullptr;
  return &i->second;
}

void count_peers(exchange_pointer self) {
  if (!self->state.opts.metrics)
    return;
  std::int64_t n = 0;
  for (const auto& [address, p] : self->state.peers)
    n += p.relay ? 1 : 0;
  self->state.opts.metrics->event_peers.set(n);
}

/// Lets the connection of `p` go (lost, or silent for too long): its batch in
/// flight goes again through the next connection, which the next `peers`
/// opens while it is still a live member.
void lose(exchange_pointer self, peer_link& p) {
  if (p.relay)
    self->demonitor(p.relay.address());
  p.relay = nullptr;
  p.connecting = false;
  p.outbox.lost();
  count_peers(self);
}

/// Sends the peer at `address` its next batch, unless one is in flight.
void send_next(exchange_pointer self, const std::string& address) {
  auto& st = self->state;
  auto i = st.peers.find(address);
  if (i == st.peers.end())
    return;
  auto& p = i->second;
  if (!p.relay || p.outbox.busy() || p.outbox.size() == 0)
    return;
  messages::cluster_event_batch batch{st.opts.node_id, st.opts.stream,
                                      p.outbox.take(st.opts.batch_limit)};
  auto n = batch.events.size();
  auto generation = p.generation;
  self->request(p.relay, st.opts.timeout, std::move(batch))
      .then(
          [self, address, generation, n](std::uint64_t) {
            auto* p = link_of(self, address, generation);
            if (p == nullptr)
              return;
            p->outbox.acknowledged();
            if (self->state.opts.metrics)
              self->state.opts.metrics->events_sent.add(n);
            send_next(self, address);
          },
          [self, address, generation](caf::error&) {
            if (auto* p = link_of(self, address, generation))
              lose(self, *p);
          });
}

/// Connects to the move relay of the peer at `address` (`host:port`).
void connect(exchange_pointer self, const std::string& address) {
  auto& st = self->state;
  auto& p = st.peers.at(address);
  auto port = actors::port_of(address);
  if (port == 0 || !st.opts.connector)
    return;
  p.connecting = true;
  p.generation = ++st.generations;
  auto generation = p.generation;
  self->request(st.opts.connector, st.opts.timeout, caf::connect_atom::value,
                actors::host_of(address), port)
      .then(
          [self, address, generation](caf::node_id&, caf::strong_actor_ptr& ptr,
                                      std::set<std::string>& ifs) {
            auto* p = link_of(self, address, generation);
            if (p == nullptr)
              return;
            p->connecting = false;
            // Not a move relay: tried again at the next `peers`.
            if (!ptr || !self->system().assignable<actors::move_relay_actor>(ifs))
              return;
            p->relay = caf::actor_cast<actors::move_relay_actor>(std::move(ptr));
            self->monitor(p->relay);
            count_peers(self);
            send_next(self, address);
          },
          [self, address, generation](caf::error&) {
            if (auto* p = link_of(self, address, generation))
              p->connecting = false;
          });
}

/// Lets the peers go that are not in `live` (with what waited for them), and
/// connects to those of `live` not connected.
void set_peers(exchange_pointer self, const std::vector<std::string>& live) {
  auto& st = self->state;
  std::set<std::string> wanted(live.begin(), live.end());
  for (auto i = st.peers.begin(); i != st.peers.end();) {
    if (wanted.count(i->first) > 0) {
      ++i;
      continue;
    }
    if (st.opts.metrics)
      st.opts.metrics->events_dropped.add(i->second.outbox.size());
    if (i->second.relay)
      self->demonitor(i->second.relay.address());
    i = st.peers.erase(i);
  }
  for (const auto& address : wanted) {
    auto& p = st.peers.try_emplace(address, st.opts.queue_limit).first->second;
    if (!p.relay && !p.connecting)
      connect(self, address);
  }
  count_peers(self);
}

actors::event_exchange_actor::behavior_type exchange(exchange_pointer self,
                                                     event_exchange_options opts) {
  self->state.origins = event_origins{opts.stream};
  self->state.opts = std::move(opts);
  self->set_down_handler([self](caf::down_msg& x) {
    for (auto& [address, p] : self->state.peers)
      if (p.relay && p.relay.address() == x.source)
        lose(self, p);
  });
  return {
      [self](messages::cluster_event& x) {
        auto& st = self->state;
        x.sequence = ++st.sequence;
        if (st.peers.empty())
          return;
        auto shared = std::make_shared<const messages::cluster_event>(std::move(x));
        for (auto& [address, p] : st.peers) {
          auto dropped = p.outbox.push(shared);
          if (dropped > 0 && st.opts.metrics)
            st.opts.metrics->events_dropped.add(dropped);
        }
        for (auto& [address, p] : st.peers)
          send_next(self, address);
      },
      [self](messages::cluster_event_batch& x) -> std::uint64_t {
        auto& st = self->state;
        std::uint64_t shown = 0;
        std::uint64_t again = 0;
        for (const auto& e : x.events) {
          switch (st.origins.arrive(x.stream, e.sequence)) {
          case arrival::show:
            if (e.topic < messages::topic_count && st.opts.show) {
              st.opts.show(x.node_id, e);
              ++shown;
            }
            break;
          case arrival::duplicate:
            ++again;
            break;
          case arrival::own:
            break;
          }
        }
        if (st.opts.metrics) {
          st.opts.metrics->events_received.add(shown);
          st.opts.metrics->events_duplicates.add(again);
        }
        return shown;
      },
      [self](messages::peers_atom, std::vector<std::string>& live) {
        set_peers(self, live);
      },
  };
}

} // namespace

actors::event_exchange_actor spawn_event_exchange(caf::actor_system& sys,
                                                  event_exchange_options opts) {
  return sys.spawn(exchange, std::move(opts));
}

} // namespace parley::cluster
