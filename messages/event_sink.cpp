#include "messages/event_sink.hpp"

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

void interest::add(topic_set topics) noexcept {
  for (std::size_t i = 0; i < topic_count; ++i)
    if (topics.contains(static_cast<topic>(i)))
      counts_[i].fetch_add(1, std::memory_order_relaxed);
}

void interest::remove(topic_set topics) noexcept {
  for (std::size_t i = 0; i < topic_count; ++i)
    if (topics.contains(static_cast<topic>(i)))
      counts_[i].fetch_sub(1, std::memory_order_relaxed);
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

void event_sink::subscribe(topic_set topics, const actors::subscriber_actor& who) const {
  if (!bus_ || !interest_ || topics.empty())
    return;
  interest_->add(topics);
  caf::anon_send(bus_, subscribe_atom::value, topics, who);
}

} // namespace parley::messages
