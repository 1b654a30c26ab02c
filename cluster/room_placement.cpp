#include "cluster/room_placement.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/io/middleman.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/room/actor.hpp"
#include "cluster/bridge/caller.hpp"
#include "cluster/bridge/forwarder.hpp"
#include "cluster/node_transport.hpp"
#include "messages/error_code.hpp"
#include "messages/events.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster {

namespace {

/// How many room specs travel in one request to a node.
constexpr std::size_t placement_batch = 1000;

/// How long a node may take to build one batch of rooms.
constexpr auto placement_timeout = std::chrono::seconds(60);

/// How long a node may take to open a bridge.
constexpr auto bridge_timeout = std::chrono::seconds(10);

struct watcher_state {
  static inline const char* name = "parley.node_watcher";
  std::string address;
  messages::event_sink events;
  std::vector<std::string> room_ids;
};

/// Watches one node; when it goes down, every room placed on it gets an E021
/// event, so whoever waits for those rooms' negotiations hears of it. Takes
/// the ids of rooms placed there as they are placed.
caf::behavior watcher(caf::stateful_actor<watcher_state>* self, std::string address,
                      room_host_actor host, messages::event_sink events) {
  self->state.address = std::move(address);
  self->state.events = std::move(events);
  self->monitor(host);
  self->set_down_handler([self](const caf::down_msg& down) {
    auto& st = self->state;
    actors::wall_clock clock{self->system()};
    auto text = "node " + st.address + " is unavailable (" +
                self->system().render(down.reason) + ")";
    for (const auto& room : st.room_ids)
      actors::publish(self, st.events, messages::topic::error,
                      messages::problem_event{messages::severity::error,
                                              messages::error_code::node_unavailable,
                                              text,
                                              clock.now_ms(),
                                              room,
                                              {},
                                              {},
                                              {}});
    self->quit();
  });
  return {
      [self](std::vector<std::string>& ids) {
        auto& mine = self->state.room_ids;
        mine.insert(mine.end(), std::make_move_iterator(ids.begin()),
                    std::make_move_iterator(ids.end()));
      },
  };
}

} // namespace

std::pair<std::string, std::uint16_t> parse_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
    throw std::runtime_error("expected HOST:PORT, got \"" + address + "\"");
  auto port_text = address.substr(colon + 1);
  std::size_t used = 0;
  unsigned long port = 0;
  try {
    port = std::stoul(port_text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != port_text.size() || port == 0 || port > 65535)
    throw std::runtime_error("bad port in \"" + address + "\"");
  return {address.substr(0, colon), static_cast<std::uint16_t>(port)};
}

room_placement::room_placement(caf::actor_system& sys, const std::vector<std::string>& nodes,
                 messages::event_sink events, actors::timer_actor local_timers,
                 std::shared_ptr<actors::negotiation::pool> local_negotiations)
    : sys_(sys), events_(std::move(events)), timers_(std::move(local_timers)),
      negotiations_(std::move(local_negotiations)) {
  for (const auto& address : nodes) {
    auto [host, port] = parse_address(address);
    // Checks that the node publishes a room host's interface; over mutual
    // TLS when this process has TLS files.
    auto remote = connect_room_host(sys_, host, port);
    if (!remote)
      throw std::runtime_error("cannot reach node " + address + ": " +
                               sys_.render(remote.error()));
    if (remote->node() == sys_.node())
      throw std::runtime_error("node " + address + " has our own node id (" +
                               to_string(sys_.node()) +
                               "); refusing to mix up two nodes");
    nodes_.push_back(node{address, *remote, open_bridge(address, *remote)});
    watchers_.push_back(sys_.spawn(watcher, address, *remote, events_));
  }
}

bridge::caller_bridge_actor room_placement::open_bridge(const std::string& address,
                                             const room_host_actor& host) {
  auto mine = bridge::spawn_caller_side(sys_, events_.bus());
  caf::scoped_actor self{sys_};
  caf::actor theirs;
  self->request(host, bridge_timeout, messages::bridge_atom::value,
                caf::actor_cast<caf::actor>(mine))
      .receive([&](caf::actor& side) { theirs = std::move(side); },
               [&](caf::error& err) {
                 caf::anon_send_exit(mine, caf::exit_reason::user_shutdown);
                 throw std::runtime_error("node " + address +
                                          " opened no bridge: " + sys_.render(err));
               });
  caf::anon_send(mine, messages::bridge_atom::value, std::move(theirs));
  return mine;
}

void room_placement::sync() {
  caf::scoped_actor self{sys_};
  for (const auto& target : nodes_)
    self->request(target.bridge, std::chrono::seconds(5), messages::sync_atom::value)
        .receive([](bool) {}, [](const caf::error&) {});
}

room_placement::~room_placement() {
  for (const auto& w : watchers_)
    caf::anon_send_exit(w, caf::exit_reason::user_shutdown);
  for (const auto& target : nodes_)
    caf::anon_send_exit(target.bridge, caf::exit_reason::user_shutdown);
}

std::vector<actors::room_actor>
room_placement::spawn_rooms(std::vector<messages::room_spec> specs) {
  if (nodes_.empty())
    return actors::room::spawn_rooms(sys_, std::move(specs), timers_, negotiations_);
  std::vector<actors::room_actor> rooms;
  // Room i goes to node (placed_ + i) % n; each node gets its share in batches.
  std::lock_guard<std::mutex> guard{placing_};
  auto n = nodes_.size();
  std::vector<std::vector<std::size_t>> placed(n);
  for (std::size_t i = 0; i < specs.size(); ++i)
    placed[(placed_ + i) % n].push_back(i);
  placed_ += specs.size();
  rooms.resize(specs.size());
  caf::scoped_actor self{sys_};
  for (std::size_t k = 0; k < n; ++k) {
    auto& target = nodes_[k];
    const auto& indices = placed[k];
    auto side = caf::actor_cast<caf::actor>(target.bridge);
    for (std::size_t begin = 0; begin < indices.size(); begin += placement_batch) {
      auto end = std::min(indices.size(), begin + placement_batch);
      std::vector<messages::room_spec> batch;
      std::vector<std::string> ids;
      batch.reserve(end - begin);
      for (auto j = begin; j < end; ++j) {
        ids.push_back(specs[indices[j]].id);
        batch.push_back(std::move(specs[indices[j]]));
      }
      self->request(target.bridge, placement_timeout, std::move(batch))
          .receive(
              [&](std::uint64_t first_slot, std::uint64_t built) {
                if (built != end - begin)
                  throw std::runtime_error("node " + target.address + " built " +
                                           std::to_string(built) + " of " +
                                           std::to_string(end - begin) + " rooms");
                // Here, each room is a forwarder to its slot at the node.
                for (auto j = begin; j < end; ++j)
                  rooms[indices[j]] = caf::actor_cast<actors::room_actor>(
                      bridge::make_forwarder(sys_, side, messages::route_kind::room,
                                              first_slot + (j - begin)));
              },
              [&](caf::error& err) {
                throw std::runtime_error("node " + target.address +
                                         " could not build rooms: " + sys_.render(err));
              });
      caf::anon_send(watchers_[k], std::move(ids));
    }
  }
  return rooms;
}

} // namespace parley::cluster
