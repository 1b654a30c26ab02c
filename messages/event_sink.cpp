#include "messages/event_sink.hpp"

#include <algorithm>

#include "caf/send.hpp"

namespace parley::messages {

interest::interest(topic_set topics) {
  for (std::size_t i = 0; i < topic_count; ++i)
    if (topics.contains(static_cast<topic>(i)))
      counts_[i].store(1, std::memory_order_relaxed);
}

topic_set interest::wanted() const noexcept {
  topic_set result;
  for (std::size_t i = 0; i < topic_count; ++i)
    if (counts_[i].load(std::memory_order_relaxed) > 0)
      result = result | topic_set::of(static_cast<topic>(i));
  return result;
}

std::shared_ptr<const subscription_list> interest::subscribers() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return subscribers_;
}

void interest::add(topic_set topics, actors::subscriber_actor who,
                   std::int64_t settle_ms) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto next = std::make_shared<subscription_list>(*subscribers_);
  next->push_back(
      subscription{topics, std::move(who), std::max<std::int64_t>(settle_ms, 0)});
  count(next->back(), 1);
  subscribers_ = std::move(next);
  settle_ms_.store(shortest_settling(*subscribers_), std::memory_order_relaxed);
}

void interest::remove(const caf::actor_addr& who) {
  std::lock_guard<std::mutex> guard{mtx_};
  auto next = std::make_shared<subscription_list>();
  for (const auto& x : *subscribers_) {
    if (x.subscriber.address() == who)
      count(x, -1);
    else
      next->push_back(x);
  }
  subscribers_ = std::move(next);
  settle_ms_.store(shortest_settling(*subscribers_), std::memory_order_relaxed);
}

void interest::count(const subscription& x, int delta) noexcept {
  for (std::size_t i = 0; i < topic_count; ++i) {
    if (!x.topics.contains(static_cast<topic>(i)))
      continue;
    counts_[i].fetch_add(static_cast<std::uint32_t>(delta), std::memory_order_relaxed);
    if (x.settle_ms > 0)
      settling_counts_[i].fetch_add(static_cast<std::uint32_t>(delta),
                                    std::memory_order_relaxed);
  }
}

std::int64_t interest::shortest_settling(const subscription_list& xs) noexcept {
  std::int64_t shortest = 0;
  for (const auto& x : xs)
    if (x.settle_ms > 0 && (shortest == 0 || x.settle_ms < shortest))
      shortest = x.settle_ms;
  return shortest;
}

bool event_sink::wants_any(topic_set topics) const noexcept {
  if (!interest_)
    return false;
  for (std::size_t i = 0; i < topic_count; ++i) {
    auto t = static_cast<topic>(i);
    if (topics.contains(t) && interest_->wants(t))
      return true;
  }
  return false;
}

void event_sink::subscribe(topic_set topics, const actors::subscriber_actor& who,
                           std::int64_t settle_ms) const {
  if (!local() || !bus_ || topics.empty())
    return;
  interest_->add(topics, who, settle_ms);
  // The bus watches the subscriber, to drop it when it terminates.
  caf::anon_send(bus_, subscribe_atom::value, topics, who);
}

} // namespace parley::messages
