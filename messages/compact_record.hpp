#pragma once

#include <string>

#include "messages/negotiation_record.hpp"

namespace parley::messages {

/// A negotiation record kept for later in a compact binary form
/// (messages/compact_codec.hpp): about a fifth of the memory of the record
/// itself (a room keeps the last 100 of its ended negotiations, and a load
/// test has a million rooms).
class compact_record {
public:
  explicit compact_record(const negotiation_record& x);

  /// The negotiation's id, read from the bytes without unpacking the rest.
  std::string id() const;

  /// The whole record again.
  negotiation_record expand() const;

  std::size_t size() const noexcept { return bytes_.size(); }

private:
  std::string bytes_;
};

} // namespace parley::messages
