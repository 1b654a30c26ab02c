#include "actors/store/backend.hpp"

#include "actors/store/postgresql_backend.hpp"
#include "actors/store/sqlite_backend.hpp"

namespace parley::actors::store {

backend::~backend() = default;

std::unique_ptr<backend> open_backend(const store_url& url) {
  if (url.kind == store_kind::postgresql)
    return open_postgresql(url.target);
  return open_sqlite(url.target, url.synchronous_full);
}

} // namespace parley::actors::store
