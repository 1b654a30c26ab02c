#include "runtime/http/errors.hpp"

#include <utility>

#include "caf/error.hpp"
#include "caf/message.hpp"
#include "caf/sec.hpp"

#include "messages/type_ids.hpp"

namespace parley::runtime::http {

response error_response(messages::error_code code, const std::string& message,
                        nlohmann::json details) {
  response r;
  r.status = messages::http_status(code);
  r.body = nlohmann::json{{"error_code", messages::to_code(code)},
                          {"message", message},
                          {"details", std::move(details)}}
               .dump();
  // Both pass: the runtime was busy, or the store could not commit (a full
  // disk, a database restarting).
  if (code == messages::error_code::overloaded ||
      code == messages::error_code::store_failed)
    r.retry_after_s = retry_after_busy_s;
  return r;
}

response error_response(const caf::error& err) {
  if (messages::is_parley_error(err)) {
    auto code = static_cast<messages::error_code>(err.code());
    const auto& ctx = err.context();
    if (ctx.match_elements<std::string, std::string>()) {
      auto details = nlohmann::json::parse(ctx.get_as<std::string>(1), nullptr, false);
      return error_response(code, ctx.get_as<std::string>(0),
                            details.is_discarded() ? nlohmann::json::object()
                                                   : std::move(details));
    }
    if (ctx.match_elements<std::string>())
      return error_response(code, ctx.get_as<std::string>(0));
    return error_response(code, messages::to_string(code));
  }
  if (err == caf::sec::request_timeout)
    return error_response(messages::error_code::overloaded,
                          "the runtime did not answer in time; retry the request");
  return error_response(messages::error_code::overloaded,
                        "the runtime cannot take the request now (" +
                            caf::to_string(err) + "); retry it");
}

} // namespace parley::runtime::http
