#include "cluster/event_rules.hpp"

#include <algorithm>
#include <utility>

namespace parley::cluster {

event_outbox::event_outbox(std::size_t limit)
    : limit_(std::max<std::size_t>(limit, 1)) {}

std::size_t event_outbox::push(event_ptr x) {
  if (events_.size() < limit_) {
    events_.push_back(std::move(x));
    return 0;
  }
  if (in_flight_ >= events_.size())
    return 1; // every event kept is in flight: the newest one goes
  events_.erase(events_.begin() + static_cast<std::ptrdiff_t>(in_flight_));
  events_.push_back(std::move(x));
  return 1;
}

std::vector<messages::cluster_event> event_outbox::take(std::size_t max) {
  std::vector<messages::cluster_event> out;
  if (busy())
    return out;
  in_flight_ = std::min(max, events_.size());
  out.reserve(in_flight_);
  for (std::size_t i = 0; i < in_flight_; ++i)
    out.push_back(*events_[i]);
  return out;
}

void event_outbox::acknowledged() {
  events_.erase(events_.begin(),
                events_.begin() + static_cast<std::ptrdiff_t>(in_flight_));
  in_flight_ = 0;
}

event_origins::event_origins(std::uint64_t own, std::size_t max_origins)
    : own_(own), max_origins_(std::max<std::size_t>(max_origins, 1)) {}

arrival event_origins::arrive(std::uint64_t stream, std::uint64_t sequence) {
  if (stream == own_)
    return arrival::own;
  ++arrivals_;
  auto i = last_.find(stream);
  if (i == last_.end()) {
    if (last_.size() >= max_origins_) {
      auto oldest = std::min_element(last_.begin(), last_.end(), [](auto& x, auto& y) {
        return x.second.heard < y.second.heard;
      });
      last_.erase(oldest);
    }
    last_.emplace(stream, seen{sequence, arrivals_});
    return arrival::show;
  }
  i->second.heard = arrivals_;
  if (sequence <= i->second.sequence)
    return arrival::duplicate;
  i->second.sequence = sequence;
  return arrival::show;
}

} // namespace parley::cluster
