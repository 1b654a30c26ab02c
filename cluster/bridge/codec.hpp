#pragma once

#include <cstddef>

#include "messages/bridge.hpp"

namespace parley::cluster::bridge {

// How a batch's messages travel (messages/bridge.hpp): each as its route and a
// one-byte tag for its type in `routed_batch::packed`, then, for the types the
// bridge carries most, its fields in the compact codec's form
// (messages/compact_codec.hpp), driven by the type's `inspect`. CAF then
// serializes one string per frame instead of every field of every message
// through its type-erased serializer. A message of any other type (one that
// holds actor handles, which only CAF can carry) has tag 0 and goes, whole,
// in `routed_batch::others`, in order.

/// Appends `x` to `batch`.
void pack(messages::routed_batch& batch, messages::routed x);

/// Reads a batch's messages back, in the order they were packed.
class batch_reader {
public:
  explicit batch_reader(messages::routed_batch& batch) : batch_(&batch) {}

  /// Puts the next message in `x`; false at the end of the batch, and at
  /// bytes that do not decode (the rest of the batch is dropped: both sides
  /// run the same build, so only a broken frame gets there).
  bool next(messages::routed& x);

private:
  messages::routed_batch* batch_;
  std::size_t pos_ = 0;
  std::size_t other_ = 0;
};

} // namespace parley::cluster::bridge
