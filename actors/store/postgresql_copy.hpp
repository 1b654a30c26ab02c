#pragma once

#include <cstdint>
#include <vector>

#include "actors/store/batch.hpp"

namespace pqxx {
class transaction_base;
} // namespace pqxx

namespace parley::actors::store {

/// Inserts the new negotiations of `ops` (those whose `insert` is set) in
/// `w` with COPY: their negotiations rows, then their negotiation_runtime
/// rows, owned by incarnation `owner` (0: none, migration 009). The server
/// takes each row as it arrives, while the next ones are rendered and sent;
/// nothing when no op inserts.
void copy_inserts(pqxx::transaction_base& w, const std::vector<write_op>& ops,
                  std::int64_t owner);

} // namespace parley::actors::store
