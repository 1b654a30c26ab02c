#include "actors/store/presence.hpp"

#include <cerrno>
#include <cstring>

#include <sys/stat.h>

#include "actors/store/backend.hpp"

namespace parley::actors::store {

std::string absent_file(const store_url& url) {
  if (url.kind != store_kind::sqlite)
    return {};
  struct stat st {};
  if (::stat(url.target.c_str(), &st) == 0)
    return {};
  if (errno == ENOENT)
    return "the SQLite store file " + url.target + " does not exist";
  throw store_error("cannot look at the SQLite store file " + url.target + ": " +
                    std::strerror(errno));
}

std::string missing_store(const store_url& url) {
  if (auto why = absent_file(url); !why.empty())
    return why;
  // There: opening it creates nothing.
  if (!open_backend(url)->holds_store())
    return "the store " + redacted(url) + " holds no Parley schema (an empty database)";
  return {};
}

std::string leftover_log(const store_url& url) {
  if (url.kind != store_kind::sqlite)
    return {};
  struct stat st {};
  auto log = url.target + "-wal";
  if (::stat(url.target.c_str(), &st) == 0 || ::stat(log.c_str(), &st) != 0)
    return {};
  return "the SQLite store file " + url.target + " does not exist, but its log " + log +
         " does (left from a store that vanished); move " + log + " and " + url.target +
         "-shm away before starting a new store there";
}

} // namespace parley::actors::store
