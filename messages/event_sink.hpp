#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "caf/actor_addr.hpp"
#include "caf/detail/scope_guard.hpp"
#include "caf/meta/type_name.hpp"

#include "messages/fields.hpp"
#include "messages/handles/bus.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// A subscriber and the topics it wants.
struct subscription {
  topic_set topics;
  actors::subscriber_actor subscriber;
  /// Zero: hears every event as it is published. Otherwise the subscriber
  /// settles (the store under `parley run` and `parley bench`, which keeps
  /// records and answers no one waiting on a move): it hears nothing of a
  /// negotiation younger than this many milliseconds but its end, with
  /// `negotiation_event::unannounced` set, or, once the negotiation is that
  /// old, one `started` with its record so far and then every event (see
  /// actors/negotiation/actor.hpp). Only on the bus's node: an event that
  /// comes through the bus reaches every subscriber.
  std::int64_t settle_ms = 0;
};

using subscription_list = std::vector<subscription>;

/// The subscribers of one bus, and how many each topic has. The producers on
/// its node read the counts before they build an event, so that nothing is
/// built or sent for a topic nobody subscribed to, and hand what they build
/// straight to the subscribers (one hop, not two through the bus). Reading a
/// count is one relaxed atomic load; a producer that reads a stale count
/// builds one event nobody gets, or misses one published as the
/// subscription arrives, which no subscriber could have told apart from one
/// published just before.
class interest {
public:
  interest() = default;

  /// A fixed interest in `topics` (a remote producer's copy of its bus's),
  /// without subscribers.
  explicit interest(topic_set topics);

  bool wants(topic x) const noexcept {
    return counts_[static_cast<std::size_t>(x)].load(std::memory_order_relaxed) > 0;
  }

  /// Whether `x` has a subscriber that hears every event as published.
  bool wants_at_once(topic x) const noexcept {
    auto i = static_cast<std::size_t>(x);
    return counts_[i].load(std::memory_order_relaxed) >
           settling_counts_[i].load(std::memory_order_relaxed);
  }

  /// The shortest `settle_ms` of the subscribers that settle; zero: none.
  std::int64_t settle_ms() const noexcept {
    return settle_ms_.load(std::memory_order_relaxed);
  }

  /// The topics with at least one subscriber.
  topic_set wanted() const noexcept;

  /// The subscribers now: an immutable snapshot (copy-on-write), so a
  /// producer holds the lock only to copy a pointer.
  std::shared_ptr<const subscription_list> subscribers() const;

  /// Adds a subscriber of `topics`, settling after `settle_ms` (zero: it
  /// hears every event at once).
  void add(topic_set topics, actors::subscriber_actor who, std::int64_t settle_ms = 0);

  /// Removes every subscription of `who`.
  void remove(const caf::actor_addr& who);

private:
  void count(const subscription& x, int delta) noexcept;
  static std::int64_t shortest_settling(const subscription_list& xs) noexcept;

  /// Subscriptions per topic; of them, the ones that settle.
  std::array<std::atomic<std::uint32_t>, topic_count> counts_{};
  std::array<std::atomic<std::uint32_t>, topic_count> settling_counts_{};
  std::atomic<std::int64_t> settle_ms_{0};
  mutable std::mutex mtx_;
  std::shared_ptr<const subscription_list> subscribers_ =
      std::make_shared<const subscription_list>();
};

/// Where a producer publishes its events: the bus, and the bus's interest.
/// A producer on the bus's node delivers to the subscribers itself
/// (`actors/common/publish.hpp`); anywhere else it sends to the bus (or its
/// stand-in), which passes the event on. Crossing the network the sink keeps
/// the topics wanted at that moment, so a remote producer sends only those
/// over the wire.
class event_sink {
public:
  event_sink() = default;

  /// A sink of `bus`; `local` when its producers share the bus's node and
  /// `wants` is the bus's own interest (they deliver directly then).
  event_sink(actors::bus_actor bus, std::shared_ptr<interest> wants, bool local = false)
      : bus_(std::move(bus)), interest_(std::move(wants)), local_(local) {}

  const actors::bus_actor& bus() const noexcept { return bus_; }

  /// Whether producers deliver to the subscribers themselves.
  bool local() const noexcept { return local_ && interest_ != nullptr; }

  /// The subscribers of a local sink (empty otherwise).
  std::shared_ptr<const subscription_list> subscribers() const {
    return local() ? interest_->subscribers()
                   : std::make_shared<const subscription_list>();
  }

  /// The same interest, published to `bus` instead (a node's stand-in for
  /// a caller's bus, see cluster/bridge/).
  event_sink with_bus(actors::bus_actor bus) const { return {std::move(bus), interest_}; }

  explicit operator bool() const noexcept { return static_cast<bool>(bus_); }

  /// Whether an event of topic `x` has a subscriber (false without a bus).
  bool wants(topic x) const noexcept { return interest_ && interest_->wants(x); }

  /// Whether `x` has a subscriber that hears every event as published.
  bool wants_at_once(topic x) const noexcept {
    return interest_ && interest_->wants_at_once(x);
  }

  /// How long a negotiation published here keeps quiet to the subscribers
  /// that settle (`subscription::settle_ms`); zero: none does (always, when
  /// the sink is not local).
  std::int64_t settle_ms() const noexcept {
    return local() ? interest_->settle_ms() : 0;
  }

  /// Whether `x` and `y` publish to the same bus with the same interest (the
  /// bus's own, or snapshots of the same topics).
  friend bool same_sink(const event_sink& x, const event_sink& y) noexcept {
    if (x.bus_ != y.bus_)
      return false;
    if (x.interest_ == y.interest_)
      return true;
    return x.interest_ && y.interest_ && x.interest_->wanted() == y.interest_->wanted();
  }

  /// Whether any topic of `topics` has a subscriber.
  bool wants_any(topic_set topics) const noexcept;

  /// Subscribes `who` to `topics` at once: every event published after this
  /// call reaches it (settling after `settle_ms`, see `subscription`). The
  /// subscription ends when `who` terminates. Only on the bus's node (a sink
  /// that crossed the network only publishes).
  void subscribe(topic_set topics, const actors::subscriber_actor& who,
                 std::int64_t settle_ms = 0) const;

  template <class Inspector>
  friend typename std::enable_if<Inspector::reads_state,
                                 typename Inspector::result_type>::type
  inspect(Inspector& f, const event_sink& x) {
    auto wanted = x.interest_ ? x.interest_->wanted() : topic_set{};
    return f(caf::meta::type_name("event_sink"), optional_field("bus", x.bus_),
             optional_field("topics", wanted));
  }

  template <class Inspector>
  friend typename std::enable_if<Inspector::writes_state,
                                 typename Inspector::result_type>::type
  inspect(Inspector& f, event_sink& x) {
    topic_set wanted;
    auto guard = caf::detail::make_scope_guard(
        [&] { x.interest_ = std::make_shared<interest>(wanted); });
    return f(caf::meta::type_name("event_sink"), optional_field("bus", x.bus_),
             optional_field("topics", wanted));
  }

private:
  actors::bus_actor bus_;
  std::shared_ptr<interest> interest_;
  bool local_ = false;
};

} // namespace parley::messages
