#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "caf/detail/scope_guard.hpp"
#include "caf/meta/type_name.hpp"

#include "actors/bus/interface.hpp"
#include "messages/fields.hpp"
#include "messages/topic.hpp"

namespace parley::messages {

/// How many subscribers each topic has on one bus. The bus counts; the
/// producers on its node read it before they build an event, so that nothing
/// is built or sent for a topic nobody subscribed to. Reading a count is one
/// relaxed atomic load; a producer that reads a stale count builds one event
/// the bus then drops, or misses one published as the subscription arrives,
/// which no subscriber could have told apart from one published just before.
class interest {
public:
  interest() = default;

  /// A fixed interest in `topics` (a remote producer's copy of its bus's).
  explicit interest(topic_set topics);

  bool wants(topic x) const noexcept {
    return counts_[static_cast<std::size_t>(x)].load(std::memory_order_relaxed) > 0;
  }

  /// The topics with at least one subscriber.
  topic_set wanted() const noexcept;

  /// Counts one more (or one less) subscriber of each topic in `topics`.
  void add(topic_set topics) noexcept;
  void remove(topic_set topics) noexcept;

private:
  std::array<std::atomic<std::uint32_t>, topic_count> counts_{};
};

/// Where a producer publishes its events: the bus, and the bus's interest.
/// Crossing the network it keeps the topics wanted at that moment, so a
/// remote producer sends only those over the wire.
class event_sink {
public:
  event_sink() = default;

  event_sink(actors::bus_actor bus, std::shared_ptr<interest> wants)
      : bus_(std::move(bus)), interest_(std::move(wants)) {}

  const actors::bus_actor& bus() const noexcept { return bus_; }

  /// The same interest, published to `bus` instead (a node's stand-in for
  /// a caller's bus, see runtime/bridge/).
  event_sink with_bus(actors::bus_actor bus) const { return {std::move(bus), interest_}; }

  explicit operator bool() const noexcept { return static_cast<bool>(bus_); }

  /// Whether an event of topic `x` has a subscriber (false without a bus).
  bool wants(topic x) const noexcept { return interest_ && interest_->wants(x); }

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

  /// Subscribes `who` to `topics`: counted at once (so that every event
  /// published after this call is built), delivered by the bus from the
  /// subscription on. The subscription ends when `who` terminates.
  void subscribe(topic_set topics, const actors::subscriber_actor& who) const;

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
};

} // namespace parley::messages
