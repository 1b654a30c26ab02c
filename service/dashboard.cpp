#include "service/dashboard.hpp"

#include <string_view>

#include "service/dashboard_files.hpp"
#include "service/errors.hpp"

namespace parley::service {

namespace {

constexpr std::string_view assets = "/assets/";

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

bool is_dashboard_path(const std::string& path) {
  return path == "/" || path.compare(0, assets.size(), assets) == 0;
}

std::optional<response> dashboard_response(const std::string& method,
                                           const std::string& path) {
  if (!is_dashboard_path(path))
    return std::nullopt;
  if (method != "GET")
    return not_allowed_response(method, path, "GET");
  auto name = path == "/" ? std::string_view{"index.html"}
                          : std::string_view{path}.substr(assets.size());
  for (const auto& file : dashboard_files())
    if (file.path == name) {
      response r;
      r.body = std::string{file.bytes};
      r.content_type = content_type_of(name);
      return r;
    }
  return error_response(messages::error_code::route_not_found,
                        "no dashboard file " + path);
}

} // namespace parley::service
