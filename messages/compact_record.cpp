#include "messages/compact_record.hpp"

#include <vector>

#include "caf/binary_deserializer.hpp"
#include "caf/binary_serializer.hpp"

namespace parley::messages {

compact_record::compact_record(const negotiation_record& x) {
  std::vector<char> buf;
  caf::binary_serializer sink{static_cast<caf::execution_unit*>(nullptr), buf};
  // A record holds no actor handle, so no actor system is needed; writing
  // into memory cannot fail.
  static_cast<void>(sink(const_cast<negotiation_record&>(x)));
  bytes_.assign(buf.begin(), buf.end());
}

std::string compact_record::id() const {
  // The id is the record's first field.
  std::string result;
  caf::binary_deserializer source{static_cast<caf::execution_unit*>(nullptr),
                                  bytes_.data(), bytes_.size()};
  static_cast<void>(source(result));
  return result;
}

negotiation_record compact_record::expand() const {
  negotiation_record result;
  caf::binary_deserializer source{static_cast<caf::execution_unit*>(nullptr),
                                  bytes_.data(), bytes_.size()};
  static_cast<void>(source(result));
  return result;
}

} // namespace parley::messages
