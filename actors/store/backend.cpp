#include "actors/store/backend.hpp"

#include "actors/store/postgresql_backend.hpp"
#include "actors/store/sqlite_backend.hpp"

namespace parley::actors::store {

backend::~backend() = default;

namespace {

/// Why a back end cannot be a cluster's store.
[[noreturn]] void no_cluster() {
  throw store_error("a cluster needs the PostgreSQL store (docs/cluster.md): an SQLite "
                    "file is one machine's");
}

} // namespace

void backend::fence_with(std::shared_ptr<const member_fence>) {
  no_cluster();
}

take_over_report backend::take_over(const member_key&, bool, std::int64_t) {
  no_cluster();
}

std::unique_ptr<backend> open_backend(const store_url& url) {
  if (url.kind == store_kind::postgresql)
    return open_postgresql(url.target);
  return open_sqlite(url.target, url.synchronous_full);
}

int apply_newer(const std::vector<migration>& all, int current,
                const std::function<void(const migration&)>& apply) {
  int applied = 0;
  for (const auto& m : all) {
    if (m.version <= current)
      continue;
    apply(m);
    ++applied;
  }
  return applied;
}

const migration* applied_last(const std::vector<migration>& all, int current) {
  for (auto i = all.rbegin(); i != all.rend(); ++i)
    if (i->version == current)
      return &*i;
  return nullptr;
}

} // namespace parley::actors::store
