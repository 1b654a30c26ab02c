#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "messages/negotiation_record.hpp"

namespace parley::actors::room {

/// A room's ended negotiations, the newest `limit`, packed back to back in
/// one buffer (messages/compact_codec.hpp): a W1 record takes about 170
/// bytes where the record itself takes 2 KB, and a load test has a million
/// rooms. Each entry is its length (a varint), then the record's bytes.
/// The rounds' message ids are left out (the gateway and the store keep
/// them): 40 bytes less per W1 record, 60 MB at a million rooms.
class history {
public:
  /// Keeps the newest `limit` records; 0 keeps none.
  explicit history(std::uint32_t limit = 0) : limit_(limit) {}

  /// Appends `record`, dropping the oldest beyond the limit.
  void add(const messages::negotiation_record& record);

  /// Whether a record with this id is kept.
  bool contains(std::string_view negotiation_id) const;

  /// The newest record's id, empty if none.
  std::string newest_id() const;

  /// The records, oldest first.
  std::vector<messages::negotiation_record> records() const;

  std::size_t size() const noexcept { return count_; }

  bool empty() const noexcept { return count_ == 0; }

  /// The bytes it holds (for tests of its size).
  std::size_t bytes() const noexcept { return bytes_.size(); }

private:
  /// Calls `f(data, size)` for each record's bytes, oldest first.
  template <class F> void each(F f) const;

  std::vector<char> bytes_;
  std::uint32_t count_ = 0;
  std::uint32_t limit_;
};

} // namespace parley::actors::room
