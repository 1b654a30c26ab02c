#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "caf/fwd.hpp"

#include "messages/error_code.hpp"
#include "service/message.hpp"

namespace parley::service {

/// Seconds a client is told to wait (`Retry-After`) when the runtime is busy.
inline constexpr unsigned retry_after_busy_s = 1;

/// The API's error body, `{"error_code","message","details"}`, with the
/// code's HTTP status (messages::http_status) and, for E030, `Retry-After`.
/// The message and the details' strings may quote client input: any byte of
/// them that is not UTF-8 is escaped (messages::escape_invalid_utf8), so the
/// body is always valid JSON.
response error_response(messages::error_code code, const std::string& message,
                        nlohmann::json details = nlohmann::json::object());

/// 503 (E030) with Retry-After: `why`, retry shortly.
response busy_response(const std::string& why);

/// 405 (E033) for `method` on `target`, whose route takes the methods
/// `allow` ("GET, POST", sent as `Allow`).
response not_allowed_response(const std::string& method, const std::string& target,
                              const std::string& allow);

/// The error body of an actor's answer: a Parley error (its message and
/// JSON details from the context, see messages::make_error), a request
/// timeout or any other CAF error (the runtime is busy or stopping: E030).
response error_response(const caf::error& err);

} // namespace parley::service
