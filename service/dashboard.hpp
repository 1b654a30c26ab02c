#pragma once

#include <string_view>

#include "service/message.hpp"

namespace parley::service {

/// The answer for the dashboard's file `name` (dashboard_files.hpp): its
/// bytes with the Content-Type of its extension, or 404 (E032) when the
/// dashboard has no file of that name. `GET /` is its index.html, `GET
/// /assets/NAME` its other files (node_routes.hpp). They need no token: the
/// page asks for one and sends it with its own API calls.
response dashboard_answer(std::string_view name);

} // namespace parley::service
