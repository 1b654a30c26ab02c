#include "service/errors.hpp"

#include <utility>

#include "caf/error.hpp"
#include "caf/message.hpp"
#include "caf/sec.hpp"

#include "messages/type_ids.hpp"
#include "messages/utf8.hpp"

namespace parley::service {

namespace {

/// Escapes what is not UTF-8 in every string of `j`, keys included.
nlohmann::json escaped(const nlohmann::json& j) {
  if (j.is_string())
    return messages::escape_invalid_utf8(j.get_ref<const std::string&>());
  if (j.is_array()) {
    auto out = nlohmann::json::array();
    for (const auto& x : j)
      out.push_back(escaped(x));
    return out;
  }
  if (j.is_object()) {
    auto out = nlohmann::json::object();
    for (auto i = j.begin(); i != j.end(); ++i)
      out[messages::escape_invalid_utf8(i.key())] = escaped(i.value());
    return out;
  }
  return j;
}

} // namespace

response error_response(messages::error_code code, const std::string& message,
                        nlohmann::json details) {
  response r;
  r.status = messages::http_status(code);
  // Escaped above; `replace` is the last line of defence: a dump that met a
  // byte that is not UTF-8 would throw on an I/O thread.
  r.body = nlohmann::json{{"error_code", messages::to_code(code)},
                          {"message", messages::escape_invalid_utf8(message)},
                          {"details", escaped(details)}}
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // Both pass: the runtime was busy, or the store could not commit (a full
  // disk, a database restarting).
  if (code == messages::error_code::overloaded ||
      code == messages::error_code::store_failed)
    r.retry_after_s = retry_after_busy_s;
  return r;
}

response busy_response(const std::string& why) {
  return error_response(messages::error_code::overloaded, why + "; retry shortly");
}

response not_allowed_response(const std::string& method, const std::string& target,
                              const std::string& allow) {
  auto r = error_response(messages::error_code::method_not_allowed,
                          method + " is not allowed on " + target +
                              " (allowed: " + allow + ")");
  r.allow = allow;
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

} // namespace parley::service
