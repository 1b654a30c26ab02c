#include "service/sse_routes.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "messages/json.hpp"
#include "messages/type_ids.hpp"
#include "messages/utf8.hpp"
#include "service/bodies.hpp"
#include "service/exchange.hpp"
#include "service/sse_hub.hpp"

namespace parley::service {

using messages::json_error;

namespace {

/// A stream's query: the global stream's filter, and where to resume.
struct stream_query {
  sse_filter filter;
  bool resume = false;
  std::uint64_t after = 0;
};

/// The `topics` parameter: a comma list of topic_group names.
messages::topic_set read_topics(const std::string& list) {
  messages::topic_set out;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    auto end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    auto name = list.substr(begin, end - begin);
    begin = end + 1;
    auto topics = topic_group(name);
    if (topics.empty())
      throw json_error("topics", "\"" + name +
                                     "\" is not one of negotiation, channel, ballot, "
                                     "auction, agent, error, problem or a topic");
    out = out | topics;
  }
  return out;
}

void read_event_id(const std::string& text, const std::string& field, stream_query& q) {
  if (!parse_event_id(text, q.after))
    throw json_error(
        field, "expected an event id (a decimal number), got \"" +
                   messages::escape_invalid_utf8(messages::utf8_prefix(text, 64)) +
                   "\"");
  q.resume = true;
}

/// Reads the query (the global stream's filters only when `filters`) and
/// the `Last-Event-ID` header, which wins over `last_event_id`.
stream_query read_stream_query(const request& req, bool filters) {
  stream_query q;
  auto at = req.target.find('?');
  auto query = at == std::string::npos ? std::string{} : req.target.substr(at + 1);
  for_each_parameter(
      query, [&q, filters](const std::string& key, const std::string& value) {
        if (key == "last_event_id") {
          read_event_id(value, key, q);
        } else if (filters && key == "topics") {
          q.filter.topics = read_topics(value);
        } else if (filters &&
                   (key == "negotiation" || key == "channel" || key == "demand")) {
          check_id(value, key);
          (key == "negotiation" ? q.filter.negotiation_id
           : key == "channel"   ? q.filter.channel_id
                                : q.filter.demand_id) = value;
        } else {
          throw json_error(key, "not a parameter of this stream");
        }
      });
  if (!req.last_event_id.empty())
    read_event_id(req.last_event_id, "Last-Event-ID", q);
  return q;
}

/// A 200 that opens an event stream handed to `start`.
response stream_response(stream_function start) {
  response r;
  r.stream = std::move(start);
  return r;
}

} // namespace

void global_stream(exchange& x) {
  auto hub = x.st.to.events;
  if (!hub)
    return x.no_route();
  auto q = read_stream_query(x.req, true);
  x.respond(stream_response([hub, q](std::shared_ptr<event_stream> s) {
    hub->subscribe(q.filter, q.resume, q.after, std::move(s));
  }));
}

void demand_stream(exchange& x) {
  auto hub = x.st.to.events;
  if (!hub)
    return x.no_route();
  auto id = x.param(0);
  check_id(id, "demand_id");
  auto q = read_stream_query(x.req, false);
  x.ask_actor<messages::demand_view>(
      x.st.to.coordinator,
      [hub, after = q.after](messages::demand_view& v) {
        return stream_response(
            [hub, after, id = v.demand_id](std::shared_ptr<event_stream> s) {
              hub->subscribe_demand(id, after, std::move(s));
            });
      },
      caf::get_atom::value, std::move(id));
}

} // namespace parley::service
