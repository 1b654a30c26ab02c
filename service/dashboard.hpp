#pragma once

#include <optional>
#include <string>

#include "service/message.hpp"

namespace parley::service {

/// The dashboard's static files (dashboard_files.hpp): `GET /` is its
/// index.html, `GET /assets/NAME` its other files, each with the Content-Type
/// of its extension. They need no token: the page asks for one and sends it
/// with its own API calls. Returns nothing when `path` (without its query) is
/// not the dashboard's; another method than GET is 405 (E033), an unknown
/// file under /assets/ 404 (E032).
std::optional<response> dashboard_response(const std::string& method,
                                           const std::string& path);

/// Whether `path` (without its query) is one of the dashboard's: what the
/// server lets through without a token.
bool is_dashboard_path(const std::string& path);

} // namespace parley::service
