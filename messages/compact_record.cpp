#include "messages/compact_record.hpp"

#include "messages/compact_codec.hpp"

namespace parley::messages {

compact_record::compact_record(const negotiation_record& x) {
  std::string buf;
  buf.reserve(256);
  compact_writer{buf}(x);
  bytes_.assign(buf.data(), buf.size());
}

std::string compact_record::id() const {
  // The id is the record's first field.
  std::string result;
  compact_reader{bytes_.data(), bytes_.size()}(result);
  return result;
}

negotiation_record compact_record::expand() const {
  negotiation_record result;
  compact_reader{bytes_.data(), bytes_.size()}(result);
  return result;
}

} // namespace parley::messages
