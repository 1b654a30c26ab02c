#pragma once

#include <cstddef>
#include <string>

#include "messages/channel_event.hpp"

namespace parley::actors::store {

/// Appends to `out` the form of `x` in `channel_events.body` (migration
/// 004): one format byte, then the event in the compact codec
/// (messages/compact_codec.hpp, driven by the event's `inspect`). About a
/// third of its JSON, and written without building a JSON tree. The bytes
/// follow `channel_event`'s field list: a change of that list (of any type
/// it holds) needs a new format byte and a reader for the old one, or the
/// open channels stored before it cannot be resumed.
void append_channel_event(std::string& out, const messages::channel_event& x);

/// The event `append_channel_event` wrote into `size` bytes at `data`.
/// Throws std::runtime_error on any other bytes (an unknown format, bytes
/// that end early or go on after the event).
messages::channel_event decode_channel_event(const char* data, std::size_t size);

} // namespace parley::actors::store
