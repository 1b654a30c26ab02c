#include "actors/store/channel_codec.hpp"

#include <stdexcept>

#include "messages/compact_codec.hpp"

namespace parley::actors::store {

namespace {

/// The first byte of every body: the compact codec over channel_event's
/// field list as it is in this build.
constexpr char compact_v1 = 1;

} // namespace

void append_channel_event(std::string& out, const messages::channel_event& x) {
  out.push_back(compact_v1);
  messages::compact_writer{out}(x);
}

messages::channel_event decode_channel_event(const char* data, std::size_t size) {
  if (size == 0 || data[0] != compact_v1)
    throw std::runtime_error("a stored channel event has an unknown format");
  messages::channel_event x;
  messages::compact_reader f{data + 1, size - 1};
  f(x);
  if (f.position() != data + size)
    throw std::runtime_error("a stored channel event has bytes after its end");
  return x;
}

} // namespace parley::actors::store
