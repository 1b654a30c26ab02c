#include "service/sse_hub.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "actors/store/iso_time.hpp"
#include "messages/channel_event.hpp"
#include "messages/consensus.hpp"
#include "messages/events.hpp"
#include "messages/json.hpp"
#include "messages/llm.hpp"
#include "messages/llm_json.hpp"
#include "service/sse_payload.hpp"

namespace parley::service {

namespace {

shared_bytes bytes_of(std::string x) {
  return std::make_shared<const std::string>(std::move(x));
}

/// Removes the elements of `xs` for which `gone` holds.
template <class T, class Gone> void erase_if(std::vector<T>& xs, Gone gone) {
  xs.erase(std::remove_if(xs.begin(), xs.end(), gone), xs.end());
}

} // namespace

sse_hub::sse_hub(options opts)
    : window_(opts.replay_events), demands_(opts.replay_events, opts.max_demands) {}

void sse_hub::publish(const messages::negotiation_event& x) {
  publish_local({topic_of(x), x.negotiation_id, {}, {}}, x.at_ms(),
                nlohmann::json(x).dump());
}

void sse_hub::publish(const messages::problem_event& x) {
  publish_local({topic_of(x), x.negotiation_id, {}, {}}, x.at_ms,
                nlohmann::json(x).dump());
}

void sse_hub::publish(const messages::agent_event& x) {
  publish_local({topic_of(x), x.negotiation_id, {}, {}}, x.at_ms,
                nlohmann::json(x).dump());
}

void sse_hub::publish(const messages::ballot_event& x) {
  publish_local({topic_of(x), {}, {}, {}}, x.at_ms, nlohmann::json(x).dump());
}

void sse_hub::publish(const messages::auction_event& x) {
  publish_local({topic_of(x), {}, {}, {}}, x.at_ms, nlohmann::json(x).dump());
}

void sse_hub::publish(const messages::channel_event& x) {
  publish_local({topic_of(x), {}, x.channel_id, x.demand_id}, x.at_ms,
                channel_payload(x).dump());
}

void sse_hub::publish_local(event_keys keys, std::int64_t at_ms,
                            const std::string& payload) {
  std::shared_ptr<const sharing> shared;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    shared = sharing_;
  }
  if (!shared) {
    publish(std::move(keys), at_ms, payload, {});
    return;
  }
  publish(keys, at_ms, payload, shared->node_id);
  if (shared->local)
    shared->local(keys, at_ms, payload);
}

void sse_hub::publish_remote(const std::string& node_id, event_keys keys,
                             std::int64_t at_ms, const std::string& payload) {
  publish(std::move(keys), at_ms, payload, node_id);
}

void sse_hub::share(std::string node_id, local_listener local) {
  auto x =
      std::make_shared<const sharing>(sharing{std::move(node_id), std::move(local)});
  std::lock_guard<std::mutex> guard{mtx_};
  sharing_ = std::move(x);
}

void sse_hub::publish(event_keys keys, std::int64_t at_ms, const std::string& payload,
                      const std::string& node_id) {
  const std::string type = messages::name_of(keys.topic);
  const auto timestamp = actors::store::to_iso(at_ms);
  std::lock_guard<std::mutex> guard{mtx_};
  auto id = ++sequence_;
  auto global = std::make_shared<const kept_frame>(kept_frame{
      id, keys, bytes_of(frame_text(id, type, timestamp, payload, node_id))});
  window_.add(global);
  last_timestamp_ = timestamp;
  // A stream that closed (the push says so) is let go.
  erase_if(global_, [&global](const global_stream& x) {
    return matches(x.filter, global->keys) && !x.stream->push(global->bytes);
  });
  if (keys.demand_id.empty() || !messages::channel_topics.contains(keys.topic))
    return;
  auto demand_id = keys.demand_id;
  auto n = demands_.next_id(demand_id);
  auto own = std::make_shared<const kept_frame>(kept_frame{
      n, std::move(keys), bytes_of(frame_text(n, type, timestamp, payload, node_id))});
  demands_.add(demand_id, own);
  auto i = by_demand_.find(demand_id);
  if (i == by_demand_.end())
    return;
  auto before = i->second.size();
  erase_if(i->second, [&own](const std::shared_ptr<event_stream>& x) {
    return !x->push(own->bytes);
  });
  demand_streams_ -= before - i->second.size();
  if (i->second.empty())
    by_demand_.erase(i);
}

void sse_hub::replay_to(const replay& r, std::uint64_t after,
                        event_stream& stream) const {
  if (r.gap) {
    // Before any event, the reset says when it was sent.
    auto timestamp = last_timestamp_.empty()
                         ? actors::store::to_iso(
                               std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::system_clock::now().time_since_epoch())
                                   .count())
                         : last_timestamp_;
    stream.push(bytes_of(reset_frame_text(after, r.first_kept, timestamp)));
  }
  for (const auto& x : r.frames)
    if (!stream.push(x->bytes))
      return;
}

void sse_hub::on_first_global(std::function<void()> f) {
  std::lock_guard<std::mutex> guard{mtx_};
  first_global_ = std::move(f);
}

void sse_hub::start_global() {
  std::function<void()> first;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (global_started_)
      return;
    global_started_ = true;
    first = std::move(first_global_);
  }
  if (first)
    first();
}

void sse_hub::subscribe(sse_filter filter, bool resume, std::uint64_t after,
                        std::shared_ptr<event_stream> stream) {
  std::function<void()> first;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    if (!global_started_) {
      global_started_ = true;
      first = std::move(first_global_);
    }
  }
  // Outside the lock: subscribing takes the bus's own.
  if (first)
    first();
  std::lock_guard<std::mutex> guard{mtx_};
  sweep();
  if (resume)
    replay_to(window_.since(after, filter), after, *stream);
  global_.push_back({std::move(filter), std::move(stream)});
}

void sse_hub::subscribe_demand(const std::string& demand_id, std::uint64_t after,
                               std::shared_ptr<event_stream> stream) {
  std::lock_guard<std::mutex> guard{mtx_};
  sweep();
  replay_to(demands_.since(demand_id, after), after, *stream);
  by_demand_[demand_id].push_back(std::move(stream));
  ++demand_streams_;
}

std::size_t sse_hub::clients() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return global_.size() + demand_streams_;
}

void sse_hub::sweep() {
  erase_if(global_, [](const global_stream& x) { return !x.stream->open(); });
  for (auto i = by_demand_.begin(); i != by_demand_.end();) {
    auto& xs = i->second;
    auto before = xs.size();
    erase_if(xs, [](const std::shared_ptr<event_stream>& x) { return !x->open(); });
    demand_streams_ -= before - xs.size();
    i = xs.empty() ? by_demand_.erase(i) : std::next(i);
  }
}

} // namespace parley::service
