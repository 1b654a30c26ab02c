#pragma once

// Requests one node of a cluster forwards to the move relay of another
// (messages/handles/move_relay.hpp; docs/cluster.md, "Any node answers"):
// the connection to each relay, kept and watched, and the requests waiting
// for their answer over it. The gateway forwards moves and openings with
// it, the channel answer router the answers of external channel members.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "caf/actor.hpp"
#include "caf/actor_addr.hpp"
#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/atom.hpp"
#include "caf/error.hpp"
#include "caf/node_id.hpp"
#include "caf/sec.hpp"

#include "actors/common/node_address.hpp"
#include "messages/handles/move_relay.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors {

/// How many times a forwarded request is sent before its caller is answered
/// E030: with mutual TLS, CAF 0.17.6 drops the proxies of a live node now and
/// then once two nodes connected to each other both ways (docs/caf-notes.md,
/// "Across nodes", item 10); a request that is idempotent by its message id
/// may be sent again through a new connection.
constexpr int relay_max_sends = 3;

/// The connections of one actor to the move relays of the cluster's other
/// nodes, by node address (`host:port` of the node port), and the requests
/// forwarded over each that wait for their answer, by a number of their own.
/// It lives in the forwarding actor's state; `forward_to_relay` fills it.
class relay_links {
public:
  /// What becomes of a waiting request when its connection is lost (given
  /// why): sent again through a new connection, or answered E030.
  using on_lost = std::function<void(const std::string& why)>;

  /// The relay connected at `address`; an unset handle when none is.
  move_relay_actor relay_at(const std::string& address) const;

  /// Keeps `relay` as the relay at `address` unless one is kept already;
  /// returns the kept one, and whether it is `relay` (to be monitored: see
  /// `lose`).
  std::pair<move_relay_actor, bool> keep(const std::string& address,
                                         move_relay_actor relay);

  /// Notes a request sent to the relay kept at `address`; `lost` runs if
  /// its connection is lost before it is taken. Returns its number.
  std::uint64_t wait(const std::string& address, on_lost lost);

  /// Takes request `n` off the list of the relay at `address`: false when it
  /// is not there (its connection was lost, and `lost` ran).
  bool take(const std::string& address, std::uint64_t n);

  /// Forgets the relay at `address` (its connection or node is lost) and
  /// runs `lost` of every request waiting for it.
  void lose(const std::string& address, const std::string& why);

  /// As `lose`, for the relay whose actor is `source` (a down message's);
  /// false when no relay kept here is.
  bool lose(const caf::actor_addr& source, const std::string& why);

  /// Runs `f` with the address of every relay lost from now on, before the
  /// requests that waited for it are handed on (the owner forgets what it
  /// knew of that node).
  void on_lose(std::function<void(const std::string& address)> f);

private:
  struct link {
    move_relay_actor relay;
    std::map<std::uint64_t, on_lost> waiting;
  };
  std::map<std::string, link> links_;
  std::uint64_t sent_ = 0;
  std::function<void(const std::string&)> lost_node_;
};

/// E030 for a request forwarded to the node at `address` that could not be
/// reached (it died, and a take-over will claim its work; or it is cut
/// off): `what` says which request ("negotiation ID runs"), `details` its
/// ids, to which the owner's address is added.
caf::error relay_unreachable(const std::string& what, nlohmann::json details,
                             const std::string& address, const std::string& why);

/// Forwards request `x` to the relay of the node at `address`, connecting
/// to it first through `connector` (CAF's middleman, or its OpenSSL
/// module's) when not connected yet; `sent`: how many times it was sent
/// before. Every request to the node is bounded by `timeout`. `Request` says
/// what is forwarded and how its caller is answered:
///
/// - `answer_type`: what the relay answers;
/// - `ask(self, relay, timeout)`: sends it to `relay` (a response handle);
/// - `resendable()`: whether it may be sent again when its connection is
///   lost (idempotent by its message id);
/// - `deliver(answer, sent)`: the owner's answer; `refuse(error, sent)`: the
///   owner's coded error (with how many sendings came before);
/// - `unreachable(address, why)`: the node cannot be reached (E030).
template <class Self, class Request>
void forward_to_relay(Self self, relay_links& links, const caf::actor& connector,
                      std::chrono::milliseconds timeout, const std::string& address,
                      Request x, int sent = 0);

namespace impl {

/// Sends `x` over the relay kept at `address` (see forward_to_relay).
template <class Self, class Request>
void send_to_relay(Self self, relay_links& links, const caf::actor& connector,
                   std::chrono::milliseconds timeout, const std::string& address,
                   Request x, int sent) {
  relay_links::on_lost lost;
  if (x.resendable() && sent + 1 < relay_max_sends)
    lost = [self, &links, connector, timeout, address, x, sent](const std::string&) {
      forward_to_relay(self, links, connector, timeout, address, x, sent + 1);
    };
  else
    lost = [address, x](const std::string& why) mutable {
      x.unreachable(address, why);
    };
  auto relay = links.relay_at(address);
  auto n = links.wait(address, std::move(lost));
  using answer_type = typename Request::answer_type;
  x.ask(self, relay, timeout)
      .then(
          [&links, address, n, x, sent](answer_type& answer) mutable {
            if (links.take(address, n))
              x.deliver(std::move(answer), sent);
          },
          [self, &links, address, n, x, sent](caf::error& err) mutable {
            if (!links.take(address, n))
              return;
            if (messages::is_parley_error(err)) {
              x.refuse(std::move(err), sent); // the owner's own answer
              return;
            }
            auto why = self->system().render(err);
            x.unreachable(address, why);
            links.lose(address, why);
          });
}

} // namespace impl

template <class Self, class Request>
void forward_to_relay(Self self, relay_links& links, const caf::actor& connector,
                      std::chrono::milliseconds timeout, const std::string& address,
                      Request x, int sent) {
  if (links.relay_at(address)) {
    impl::send_to_relay(self, links, connector, timeout, address, std::move(x), sent);
    return;
  }
  auto port = port_of(address);
  if (port == 0) {
    x.unreachable(address, "not host:port");
    return;
  }
  self->request(connector, timeout, caf::connect_atom::value, host_of(address), port)
      .then(
          [self, &links, connector, timeout, address, x,
           sent](caf::node_id&, caf::strong_actor_ptr& ptr,
                 std::set<std::string>& ifs) mutable {
            if (!ptr || !self->system().template assignable<move_relay_actor>(ifs)) {
              x.unreachable(address, "it publishes no move relay");
              return;
            }
            auto kept = links.keep(address, caf::actor_cast<move_relay_actor>(ptr));
            if (kept.second)
              self->monitor(kept.first); // its node lost: the owner's down handler
            impl::send_to_relay(self, links, connector, timeout, address, std::move(x),
                                sent);
          },
          [self, &links, connector, timeout, address, x,
           sent](caf::error& err) mutable {
            // CAF 0.17.6 may time out a connection in its handshake at its
            // next heartbeat tick (docs/caf-notes.md, "Across nodes", item
            // 10): connecting again is worth it.
            if (err == caf::sec::connection_timeout && sent + 1 < relay_max_sends)
              forward_to_relay(self, links, connector, timeout, address, std::move(x),
                               sent + 1);
            else
              x.unreachable(address, self->system().render(err));
          });
}

} // namespace parley::actors
