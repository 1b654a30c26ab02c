#include "actors/room/history.hpp"

#include <algorithm>

#include "messages/compact_codec.hpp"

namespace parley::actors::room {

namespace {

void put_varint(std::vector<char>& out, std::uint64_t x) {
  while (x >= 0x80) {
    out.push_back(static_cast<char>(x | 0x80));
    x >>= 7;
  }
  out.push_back(static_cast<char>(x));
}

std::size_t varint_size(std::uint64_t x) {
  std::size_t n = 1;
  for (; x >= 0x80; x >>= 7)
    ++n;
  return n;
}

/// Reads the varint at `pos` (written by this file, so well formed).
std::size_t get_varint(const char*& pos) {
  std::size_t x = 0;
  for (int shift = 0;; shift += 7) {
    auto b = static_cast<unsigned char>(*pos++);
    x |= static_cast<std::size_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0)
      return x;
  }
}

} // namespace

template <class F> void history::each(F f) const {
  const char* pos = bytes_.data();
  for (std::uint32_t i = 0; i < count_; ++i) {
    auto n = get_varint(pos);
    f(pos, n);
    pos += n;
  }
}

void history::add(const messages::negotiation_record& record) {
  if (limit_ == 0)
    return;
  // A copy into a reused record (its buffers stay allocated), without the
  // rounds' message ids.
  thread_local messages::negotiation_record kept;
  thread_local std::string packed;
  kept = record;
  for (auto& round : kept.rounds)
    round.message_id.clear();
  packed.clear();
  messages::compact_writer{packed}(kept);
  if (count_ == limit_) {
    const char* pos = bytes_.data();
    auto n = get_varint(pos);
    auto first = static_cast<std::size_t>(pos - bytes_.data()) + n;
    bytes_.erase(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(first));
    --count_;
  }
  // Grows by a quarter, not double: most rooms keep one or two records.
  auto needed = bytes_.size() + varint_size(packed.size()) + packed.size();
  if (bytes_.capacity() < needed)
    bytes_.reserve(needed + bytes_.size() / 4);
  put_varint(bytes_, packed.size());
  bytes_.insert(bytes_.end(), packed.begin(), packed.end());
  ++count_;
}

bool history::contains(std::string_view negotiation_id) const {
  bool found = false;
  each([&](const char* data, std::size_t n) {
    // The id is the record's first field.
    if (!found)
      found = messages::compact_reader::first_string(data, n) == negotiation_id;
  });
  return found;
}

std::string history::newest_id() const {
  std::string result;
  each([&](const char* data, std::size_t n) {
    result = messages::compact_reader::first_string(data, n);
  });
  return result;
}

std::vector<messages::negotiation_record> history::records() const {
  std::vector<messages::negotiation_record> result;
  result.reserve(count_);
  each([&](const char* data, std::size_t n) {
    result.emplace_back();
    messages::compact_reader{data, n}(result.back());
  });
  return result;
}

} // namespace parley::actors::room
