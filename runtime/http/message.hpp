#pragma once

#include <functional>
#include <string>

namespace parley::runtime::http {

/// An HTTP request as the routes see it (no Beast type crosses this line).
struct request {
  /// "GET", "POST", ...
  std::string method;
  /// Path and query, as sent ("/api/v1/negotiations?state=accepted").
  std::string target;
  std::string body;
};

/// An answer: a status and a body, JSON unless `content_type` says otherwise.
struct response {
  unsigned status = 200;
  std::string body;
  /// When not zero, sent as `Retry-After` (seconds): the runtime is busy.
  unsigned retry_after_s = 0;
  std::string content_type = "application/json";
};

/// Answers one request: called exactly once, from any thread.
using respond_function = std::function<void(response)>;

/// Handles one request; may answer at once or later, from any thread.
using handler_function = std::function<void(request, respond_function)>;

} // namespace parley::runtime::http
