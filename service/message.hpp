#pragma once

#include <functional>
#include <memory>
#include <string>

namespace parley::service {

/// An HTTP request as the routes see it (no Beast type crosses this line).
struct request {
  /// "GET", "POST", ...
  std::string method;
  /// Path and query, as sent ("/api/v1/negotiations?state=accepted").
  std::string target;
  std::string body;
  /// The `Last-Event-ID` header (an event stream's resume point); empty
  /// when not sent.
  std::string last_event_id;
};

/// The bytes of one or more Server-Sent-Event frames, shared unchanged by
/// every stream they go to (serialized once).
using shared_bytes = std::shared_ptr<const std::string>;

/// A connection's side of an open event stream: whoever feeds it pushes
/// frames from any thread; the server writes them on the connection's
/// strand, several queued frames in one write.
class event_stream {
public:
  virtual ~event_stream() = default;

  /// Queues `frame` without blocking. Returns false when the stream is
  /// closed: the client went away, the server stops, or its queue went over
  /// its bound (the stream is then closed and counted as dropped).
  virtual bool push(shared_bytes frame) = 0;

  /// Whether the stream still takes frames.
  virtual bool open() const noexcept = 0;
};

/// Called once the stream's headers are sent: from then on the stream is
/// fed through `stream`, which the callee keeps as long as it feeds it.
using stream_function = std::function<void(std::shared_ptr<event_stream> stream)>;

/// An answer: a status and a body (JSON unless `content_type` says
/// otherwise), or an event stream.
struct response {
  unsigned status = 200;
  std::string body;
  /// When not zero, sent as `Retry-After` (seconds): the runtime is busy.
  unsigned retry_after_s = 0;
  /// When set (with status 200), the answer is a `text/event-stream`: the
  /// server sends its headers, then hands the stream over; `body` is
  /// ignored.
  stream_function stream;
  /// The body's `Content-Type` (the dashboard's files have their own).
  std::string content_type = "application/json";
  /// When not empty, sent as `Allow`: the methods of the route a 405
  /// answers ("GET, POST").
  std::string allow = {};
};

/// Answers one request: called exactly once, from any thread.
using respond_function = std::function<void(response)>;

/// Handles one request; may answer at once or later, from any thread.
using handler_function = std::function<void(request, respond_function)>;

} // namespace parley::service
