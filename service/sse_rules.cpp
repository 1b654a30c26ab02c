#include "service/sse_rules.hpp"

#include <utility>

#include <nlohmann/json.hpp>

namespace parley::service {

using messages::topic;
using messages::topic_set;

namespace {

/// Whether `wanted` (empty: any) lets `given` through.
bool id_matches(const std::string& wanted, const std::string& given) {
  return wanted.empty() || wanted == given;
}

/// The frames of `frames` after `after` that `keep` lets through; `last` is
/// the last id ever added.
template <class Keep>
replay frames_after(const std::deque<frame_ptr>& frames, std::uint64_t after,
                    std::uint64_t last, Keep keep) {
  replay out;
  out.first_kept = frames.empty() ? 0 : frames.front()->id;
  auto next = frames.empty() ? last + 1 : out.first_kept;
  // An id past the last one comes from before a restart: nothing after it
  // can be told apart, so everything kept is replayed behind a reset.
  out.gap = (after + 1 < next && after < last) || after > last;
  auto from = out.gap ? 0 : after;
  for (const auto& x : frames)
    if (x->id > from && keep(*x))
      out.frames.push_back(x);
  return out;
}

} // namespace

bool matches(const sse_filter& filter, const event_keys& keys) {
  return filter.topics.contains(keys.topic) &&
         id_matches(filter.negotiation_id, keys.negotiation_id) &&
         id_matches(filter.channel_id, keys.channel_id) &&
         id_matches(filter.demand_id, keys.demand_id);
}

topic_set topic_group(const std::string& name) {
  if (name == "negotiation")
    return messages::lifecycle_topics;
  if (name == "channel")
    return messages::channel_topics;
  if (name == "ballot")
    return topic_set::of(topic::ballot_proposed) | topic_set::of(topic::ballot_vote) |
           topic_set::of(topic::ballot_result);
  if (name == "auction")
    return topic_set::of(topic::auction_bid) | topic_set::of(topic::auction_result);
  if (name == "agent")
    return topic_set::of(topic::agent_message) | topic_set::of(topic::agent_tool_call) |
           topic_set::of(topic::agent_decision);
  if (name == "error" || name == "problem")
    return messages::problem_topics;
  return topic_set::matching(name);
}

std::string frame_text(std::uint64_t id, const std::string& event_type,
                       const std::string& timestamp, const std::string& payload_json,
                       const std::string& node_id) {
  auto n = std::to_string(id);
  std::string out;
  out.reserve(payload_json.size() + 2 * event_type.size() + 2 * n.size() +
              node_id.size() + 130);
  out += "id: ";
  out += n;
  out += "\nevent: ";
  out += event_type;
  out += "\ndata: {\"event_id\":\"";
  out += n;
  out += "\",\"event_type\":\"";
  out += event_type;
  out += "\",\"timestamp\":\"";
  out += timestamp;
  if (!node_id.empty()) {
    out += "\",\"node\":";
    out += nlohmann::json(node_id).dump();
    out += ",\"payload\":";
  } else {
    out += "\",\"payload\":";
  }
  out += payload_json;
  out += "}\n\n";
  return out;
}

std::string reset_frame_text(std::uint64_t after, std::uint64_t first_kept,
                             const std::string& timestamp) {
  return "event: reset\ndata: {\"event_type\":\"reset\",\"timestamp\":\"" + timestamp +
         "\",\"payload\":{\"after\":\"" + std::to_string(after) +
         "\",\"first_kept\":\"" + std::to_string(first_kept) + "\"}}\n\n";
}

replay_window::replay_window(std::size_t capacity) : capacity_(capacity) {}

void replay_window::add(frame_ptr x) {
  last_ = x->id;
  frames_.push_back(std::move(x));
  while (frames_.size() > capacity_)
    frames_.pop_front();
}

replay replay_window::since(std::uint64_t after, const sse_filter& filter) const {
  return frames_after(frames_, after, last_, [&filter](const kept_frame& x) {
    return matches(filter, x.keys);
  });
}

demand_logs::demand_logs(std::size_t capacity, std::size_t max_demands)
    : capacity_(capacity), max_demands_(max_demands) {}

std::uint64_t demand_logs::next_id(const std::string& demand_id) const {
  auto i = logs_.find(demand_id);
  return i == logs_.end() ? 1 : i->second.count + 1;
}

void demand_logs::add(const std::string& demand_id, frame_ptr x) {
  auto i = logs_.find(demand_id);
  if (i == logs_.end()) {
    recency_.push_front(demand_id);
    i = logs_.emplace(demand_id, log{}).first;
    i->second.serial = ++serials_;
    i->second.recency = recency_.begin();
  } else {
    recency_.splice(recency_.begin(), recency_, i->second.recency);
  }
  auto& l = i->second;
  l.count = x->id;
  l.frames.push_back(std::move(x));
  ages_.push_back({demand_id, l.serial});
  ++frames_;
  while (frames_ > capacity_ || ages_.size() > 2 * capacity_ + 1)
    forget_oldest_frame();
  while (logs_.size() > max_demands_) {
    auto j = logs_.find(recency_.back());
    frames_ -= j->second.frames.size();
    logs_.erase(j);
    recency_.pop_back();
  }
}

void demand_logs::forget_oldest_frame() {
  auto oldest = std::move(ages_.front());
  ages_.pop_front();
  auto i = logs_.find(oldest.demand_id);
  if (i == logs_.end() || i->second.serial != oldest.serial || i->second.frames.empty())
    return; // the log was forgotten meanwhile
  i->second.frames.pop_front();
  --frames_;
}

replay demand_logs::since(const std::string& demand_id, std::uint64_t after) const {
  auto i = logs_.find(demand_id);
  if (i == logs_.end())
    return frames_after({}, after, 0, [](const kept_frame&) { return true; });
  return frames_after(i->second.frames, after, i->second.count,
                      [](const kept_frame&) { return true; });
}

bool parse_event_id(const std::string& text, std::uint64_t& id) {
  if (text.empty() || text.size() > 19)
    return false;
  std::uint64_t x = 0;
  for (auto c : text) {
    if (c < '0' || c > '9')
      return false;
    x = x * 10 + static_cast<std::uint64_t>(c - '0');
  }
  id = x;
  return true;
}

} // namespace parley::service
