#pragma once

// A small binary form of any inspectable value (its `inspect` names the
// fields, so nothing here repeats them), for values kept in memory (a room's
// history) and for the messages two bridges exchange (cluster/bridge/codec.hpp,
// between processes of one build: 8-byte fields keep the machine's byte
// order). What a negotiation record repeats costs a byte:
// - a string equal to one written before (an agent id in every round, the
//   currency of every proposal), or the end of one (the room id at the end of
//   a negotiation id), is a reference to it; a UUID is its 16 bytes;
// - a 64-bit integer of epoch-millisecond size is the difference to the
//   previous one (a record's timestamps are milliseconds apart);
// - a double that is a whole number of hundredths (a convergence score, the
//   incentive split) is that number; any other double is its 8 bytes.
// Other integers are zigzag varints; containers have varint lengths. About a
// third of the size of CAF's binary serializer's output, and much faster to
// write (CAF 0.17 returns an error object per field).

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "caf/meta/annotation.hpp"
#include "caf/optional.hpp"

namespace parley::messages {

namespace compact {

/// How many earlier strings a string can refer to.
constexpr std::size_t string_table_size = 16;

/// Integers at least this large (2^40 ms is 2004) are written as the
/// difference to the previous one.
constexpr std::int64_t epoch_scale = std::int64_t{1} << 40;

/// Doubles that are hundredths of an integer below this are written as it.
constexpr std::int64_t max_hundredths = std::int64_t{1} << 40;

inline std::uint64_t zigzag(std::int64_t v) {
  return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
}

inline std::int64_t unzigzag(std::uint64_t v) {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

inline bool is_epoch_scale(std::int64_t v) {
  return v >= epoch_scale || v <= -epoch_scale;
}

/// Where the dashes of a canonical UUID are.
inline bool is_uuid_dash(std::size_t i) {
  return i == 8 || i == 13 || i == 18 || i == 23;
}

/// Packs a UUID in canonical form (36 characters, lower-case hex digits,
/// dashes at 8, 13, 18 and 23) into 16 bytes; false for any other string.
inline bool pack_uuid(const std::string& x, std::uint8_t (&out)[16]) {
  if (x.size() != 36)
    return false;
  std::size_t nibble = 0;
  for (std::size_t i = 0; i < 36; ++i) {
    auto c = x[i];
    if (is_uuid_dash(i)) {
      if (c != '-')
        return false;
      continue;
    }
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else
      return false;
    if (nibble % 2 == 0)
      out[nibble / 2] = static_cast<std::uint8_t>(v << 4);
    else
      out[nibble / 2] = static_cast<std::uint8_t>(out[nibble / 2] | v);
    ++nibble;
  }
  return true;
}

inline void unpack_uuid(const std::uint8_t (&bytes)[16], char (&out)[36]) {
  static constexpr char hex[] = "0123456789abcdef";
  std::size_t nibble = 0;
  for (std::size_t i = 0; i < 36; ++i) {
    if (is_uuid_dash(i)) {
      out[i] = '-';
      continue;
    }
    auto b = bytes[nibble / 2];
    out[i] = hex[nibble % 2 == 0 ? b >> 4 : b & 0xf];
    ++nibble;
  }
}

} // namespace compact

/// Appends values to a byte string.
class compact_writer {
public:
  using result_type = void;
  static constexpr bool reads_state = true;
  static constexpr bool writes_state = false;

  explicit compact_writer(std::string& out) : out_(&out) {}

  template <class... Ts> void operator()(Ts&&... xs) { (write(xs), ...); }

private:
  template <class T> void write(const T& x) {
    if constexpr (caf::meta::is_annotation<T>::value) {
      // type names and other annotations take no space
    } else if constexpr (std::is_same<T, bool>::value) {
      out_->push_back(x ? 1 : 0);
    } else if constexpr (std::is_enum<T>::value) {
      varint(static_cast<std::uint64_t>(x));
    } else if constexpr (std::is_same<T, std::int64_t>::value) {
      write_int64(x);
    } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
      varint(compact::zigzag(x));
    } else if constexpr (std::is_integral<T>::value) {
      varint(static_cast<std::uint64_t>(x));
    } else if constexpr (std::is_same<T, double>::value) {
      write_double(x);
    } else if constexpr (std::is_same<T, std::string>::value) {
      write_string(x);
    } else {
      write_compound(x);
    }
  }

  /// Two tag bits: 0, the value; 1, the difference to the previous large
  /// value; 2, the 8 bytes follow (values too large for the tag).
  void write_int64(std::int64_t x) {
    auto fits = [](std::uint64_t v) { return v >> 62 == 0; };
    if (compact::is_epoch_scale(x)) {
      auto previous = last_large_;
      auto had = has_large_;
      has_large_ = true;
      last_large_ = x;
      // Large values of the same sign: their difference cannot overflow.
      if (had && (x < 0) == (previous < 0)) {
        auto v = compact::zigzag(x - previous);
        if (fits(v)) {
          varint((v << 2) | 1);
          return;
        }
      }
    }
    auto v = compact::zigzag(x);
    if (fits(v)) {
      varint(v << 2);
      return;
    }
    varint(2);
    raw(&x, sizeof(x));
  }

  /// Tag bit 0: that many hundredths; 1: the 8 bytes follow.
  void write_double(double x) {
    if (std::isfinite(x) && std::fabs(x) < static_cast<double>(compact::max_hundredths)) {
      auto k = std::llround(x * 100.0);
      if (static_cast<double>(k) / 100.0 == x && !(x == 0.0 && std::signbit(x))) {
        varint(compact::zigzag(k) << 1);
        return;
      }
    }
    varint(1);
    raw(&x, sizeof(x));
  }

  /// Two tag bits: 0, the length, then the bytes; 1, the index of an equal
  /// string written before; 2, the index of one it is the end of, then the
  /// length (a negotiation id ends with its room's id); 3, a UUID in its
  /// canonical form, as its 16 bytes.
  void write_string(const std::string& x) {
    // The table holds no empty string. Each candidate's last byte is looked
    // at before its bytes are compared: ids of one length (agents, channels)
    // mostly differ there, and most strings end differently.
    if (!x.empty()) {
      const char* data = out_->data();
      for (std::size_t i = 0; i < strings_; ++i) {
        const auto& [offset, size] = table_[i];
        if (size == x.size() && data[offset + size - 1] == x.back() &&
            std::memcmp(data + offset, x.data(), size) == 0) {
          varint((i << 2) | 1);
          return;
        }
      }
      for (std::size_t i = 0; i < strings_; ++i) {
        const auto& [offset, size] = table_[i];
        if (size > x.size() && data[offset + size - 1] == x.back() &&
            std::memcmp(data + offset + size - x.size(), x.data(), x.size()) == 0) {
          varint((i << 2) | 2);
          varint(x.size());
          return;
        }
      }
    }
    std::uint8_t uuid[16];
    if (compact::pack_uuid(x, uuid)) {
      varint(3);
      raw(uuid, sizeof(uuid));
      return;
    }
    varint(static_cast<std::uint64_t>(x.size()) << 2);
    if (strings_ < table_.size() && !x.empty())
      table_[strings_++] = {out_->size(), x.size()};
    out_->append(x);
  }

  void raw(const void* bytes, std::size_t n) {
    out_->append(static_cast<const char*>(bytes), n);
  }

  template <class T> void write_compound(const caf::optional<T>& x) {
    out_->push_back(x ? 1 : 0);
    if (x)
      write(*x);
  }

  template <class T> void write_compound(const std::vector<T>& xs) {
    varint(xs.size());
    for (const auto& x : xs)
      write(x);
  }

  template <class K, class V> void write_compound(const std::map<K, V>& xs) {
    varint(xs.size());
    for (const auto& [k, v] : xs) {
      write(k);
      write(v);
    }
  }

  template <class T> void write_compound(const T& x) {
    // The type's own field list (its `inspect` reads, never writes, here).
    inspect(*this, const_cast<T&>(x));
  }

  void varint(std::uint64_t x) {
    while (x >= 0x80) {
      out_->push_back(static_cast<char>(x | 0x80));
      x >>= 7;
    }
    out_->push_back(static_cast<char>(x));
  }

  std::string* out_;
  /// Where the strings that can be referred to are in `out_`.
  std::array<std::pair<std::size_t, std::size_t>, compact::string_table_size> table_{};
  std::size_t strings_ = 0;
  bool has_large_ = false;
  std::int64_t last_large_ = 0;
};

/// Reads back what a compact_writer wrote; throws std::runtime_error on bytes
/// that end early.
class compact_reader {
public:
  using result_type = void;
  static constexpr bool reads_state = false;
  static constexpr bool writes_state = true;

  compact_reader(const char* data, std::size_t size) : pos_(data), end_(data + size) {}

  template <class... Ts> void operator()(Ts&&... xs) { (read(xs), ...); }

  /// Where the next value starts: the end of what was read.
  const char* position() const { return pos_; }

  /// The first string of the bytes (a value whose first field is a string),
  /// without reading the rest.
  static std::string first_string(const char* data, std::size_t size) {
    compact_reader f{data, size};
    auto [begin, n] = f.read_string();
    return {begin, n};
  }

private:
  template <class T> void read(T& x) {
    if constexpr (caf::meta::is_annotation<T>::value) {
      // nothing was written
    } else if constexpr (std::is_same<T, bool>::value) {
      x = byte() != 0;
    } else if constexpr (std::is_enum<T>::value) {
      x = static_cast<T>(varint());
    } else if constexpr (std::is_same<T, std::int64_t>::value) {
      x = read_int64();
    } else if constexpr (std::is_integral<T>::value && std::is_signed<T>::value) {
      x = static_cast<T>(compact::unzigzag(varint()));
    } else if constexpr (std::is_integral<T>::value) {
      x = static_cast<T>(varint());
    } else if constexpr (std::is_same<T, double>::value) {
      x = read_double();
    } else if constexpr (std::is_same<T, std::string>::value) {
      auto view = read_string();
      x.assign(view.first, view.second);
    } else {
      read_compound(x);
    }
  }

  std::int64_t read_int64() {
    auto v = varint();
    std::int64_t x;
    switch (v & 3) {
    case 0:
      x = compact::unzigzag(v >> 2);
      break;
    case 1:
      x = static_cast<std::int64_t>(static_cast<std::uint64_t>(last_large_) +
                                    static_cast<std::uint64_t>(compact::unzigzag(v >> 2)));
      break;
    case 2:
      raw(&x, sizeof(x));
      break;
    default:
      throw std::runtime_error("compact integer with an unknown tag");
    }
    if (compact::is_epoch_scale(x))
      last_large_ = x;
    return x;
  }

  double read_double() {
    auto v = varint();
    if ((v & 1) == 0)
      return static_cast<double>(compact::unzigzag(v >> 1)) / 100.0;
    double x;
    raw(&x, sizeof(x));
    return x;
  }

  /// A string's bytes: in the input, or (a UUID) in `uuid_`, valid until
  /// the next string is read.
  std::pair<const char*, std::size_t> read_string() {
    auto v = varint();
    switch (v & 3) {
    case 0: {
      auto n = v >> 2;
      need(n);
      std::pair<const char*, std::size_t> result{pos_, static_cast<std::size_t>(n)};
      pos_ += n;
      if (strings_ < table_.size() && n > 0)
        table_[strings_++] = result;
      return result;
    }
    case 1:
      return entry(v >> 2);
    case 2: {
      auto [begin, size] = entry(v >> 2);
      auto n = varint();
      if (n >= size)
        throw std::runtime_error("compact string suffix too long");
      return {begin + size - n, static_cast<std::size_t>(n)};
    }
    default: {
      if (v != 3)
        throw std::runtime_error("compact string with an unknown tag");
      std::uint8_t bytes[16];
      raw(bytes, sizeof(bytes));
      compact::unpack_uuid(bytes, uuid_);
      return {uuid_, sizeof(uuid_)};
    }
    }
  }

  std::pair<const char*, std::size_t> entry(std::uint64_t i) const {
    if (i >= strings_)
      throw std::runtime_error("compact string reference out of range");
    return table_[i];
  }

  void raw(void* bytes, std::size_t n) {
    need(n);
    std::memcpy(bytes, pos_, n);
    pos_ += n;
  }

  template <class T> void read_compound(caf::optional<T>& x) {
    if (byte() == 0) {
      x = caf::none;
      return;
    }
    T value;
    read(value);
    x = std::move(value);
  }

  template <class T> void read_compound(std::vector<T>& xs) {
    auto n = varint();
    xs.clear();
    xs.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      T x;
      read(x);
      xs.push_back(std::move(x));
    }
  }

  template <class K, class V> void read_compound(std::map<K, V>& xs) {
    auto n = varint();
    xs.clear();
    for (std::uint64_t i = 0; i < n; ++i) {
      K k;
      V v;
      read(k);
      read(v);
      xs.emplace(std::move(k), std::move(v));
    }
  }

  template <class T> void read_compound(T& x) { inspect(*this, x); }

  void need(std::uint64_t n) {
    if (n > static_cast<std::uint64_t>(end_ - pos_))
      throw std::runtime_error("compact bytes end early");
  }

  char byte() {
    need(1);
    return *pos_++;
  }

  std::uint64_t varint() {
    std::uint64_t x = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      auto b = static_cast<unsigned char>(byte());
      x |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return x;
    }
    throw std::runtime_error("compact varint too long");
  }

  const char* pos_;
  const char* end_;
  std::array<std::pair<const char*, std::size_t>, compact::string_table_size> table_{};
  std::size_t strings_ = 0;
  std::int64_t last_large_ = 0;
  char uuid_[36];
};

} // namespace parley::messages
