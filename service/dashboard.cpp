#include "service/dashboard.hpp"

#include <string>

#include "service/dashboard_files.hpp"
#include "service/errors.hpp"

namespace parley::service {

namespace {

/// The Content-Type of a file, by its extension.
std::string content_type_of(std::string_view path) {
  auto dot = path.rfind('.');
  auto ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot);
  if (ext == ".html")
    return "text/html; charset=utf-8";
  if (ext == ".js")
    return "text/javascript; charset=utf-8";
  if (ext == ".css")
    return "text/css; charset=utf-8";
  if (ext == ".svg")
    return "image/svg+xml";
  return "application/octet-stream";
}

} // namespace

response dashboard_answer(std::string_view name) {
  for (const auto& file : dashboard_files())
    if (file.path == name) {
      response r;
      r.body = std::string{file.bytes};
      r.content_type = content_type_of(name);
      return r;
    }
  return error_response(messages::error_code::route_not_found,
                        "no dashboard file /assets/" + std::string{name});
}

} // namespace parley::service
