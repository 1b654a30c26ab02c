#include "actors/store/store_url.hpp"

namespace parley::actors::store {

namespace {

bool starts_with(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

} // namespace

std::string parse_store_url(const std::string& text, store_url& out) {
  if (text.empty())
    return "the store URL is empty";
  if (starts_with(text, "postgresql://") || starts_with(text, "postgres://")) {
    out = store_url{store_kind::postgresql, text};
    return {};
  }
  auto path = starts_with(text, "sqlite:") ? text.substr(7) : text;
  if (starts_with(path, "//"))
    path = path.substr(2);
  if (path.empty())
    return "the store URL \"" + text + "\" names no file";
  if (path.find("://") != std::string::npos)
    return "unknown store URL \"" + text +
           "\": expected a path, sqlite:PATH or postgresql://…";
  out = store_url{store_kind::sqlite, path};
  return {};
}

std::string choose_store_url(const std::string& flag, const char* environment,
                             const std::string& configured) {
  if (!flag.empty())
    return flag;
  if (environment != nullptr && *environment != '\0')
    return environment;
  return configured;
}

std::string redacted(const store_url& x) {
  if (x.kind == store_kind::sqlite)
    return "sqlite:" + x.target;
  auto scheme_end = x.target.find("://") + 3;
  auto at = x.target.find('@', scheme_end);
  auto colon = x.target.find(':', scheme_end);
  if (at == std::string::npos || colon == std::string::npos || colon > at)
    return x.target;
  return x.target.substr(0, colon + 1) + "***" + x.target.substr(at);
}

std::string store_kind_name(const std::string& text) {
  store_url x;
  parse_store_url(text, x);
  return x.kind == store_kind::postgresql ? "postgresql" : "sqlite";
}

} // namespace parley::actors::store
