#include "messages/json_reader.hpp"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "messages/utf8.hpp"

namespace parley::messages {

std::string path_join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string path_index(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string json_kind(const nlohmann::json& j) {
  switch (j.type()) {
  case nlohmann::json::value_t::null:
    return "null";
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::number_integer:
  case nlohmann::json::value_t::number_unsigned:
    return "an integer";
  case nlohmann::json::value_t::number_float:
    return "a number with a fraction";
  default:
    return "an unsupported value";
  }
}

void read(const nlohmann::json& j, const std::string& path, std::string& x) {
  if (!j.is_string())
    throw json_error(path, "expected a string, got " + json_kind(j));
  x = j.get<std::string>();
}

void read(const nlohmann::json& j, const std::string& path, bool& x) {
  if (!j.is_boolean())
    throw json_error(path, "expected true or false, got " + json_kind(j));
  x = j.get<bool>();
}

void read(const nlohmann::json& j, const std::string& path, std::int64_t& x) {
  if (j.is_number_unsigned()) {
    auto value = j.get<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw json_error(path, "integer too large");
    x = static_cast<std::int64_t>(value);
    return;
  }
  if (!j.is_number_integer())
    throw json_error(path, "expected an integer, got " + json_kind(j));
  x = j.get<std::int64_t>();
}

void read(const nlohmann::json& j, const std::string& path, std::int32_t& x) {
  std::int64_t wide = 0;
  read(j, path, wide);
  if (wide < std::numeric_limits<std::int32_t>::min() ||
      wide > std::numeric_limits<std::int32_t>::max())
    throw json_error(path, "integer out of range: " + std::to_string(wide));
  x = static_cast<std::int32_t>(wide);
}

void read(const nlohmann::json& j, const std::string& path, std::uint64_t& x) {
  if (j.is_number_unsigned()) {
    x = j.get<std::uint64_t>();
    return;
  }
  if (j.is_number_integer() && j.get<std::int64_t>() >= 0) {
    x = static_cast<std::uint64_t>(j.get<std::int64_t>());
    return;
  }
  throw json_error(path, "expected a non-negative integer, got " + json_kind(j));
}

void read(const nlohmann::json& j, const std::string& path, double& x) {
  if (!j.is_number())
    throw json_error(path, "expected a number, got " + json_kind(j));
  x = j.get<double>();
}

object_reader::object_reader(const nlohmann::json& j, std::string path)
    : object_(j), path_(std::move(path)) {
  if (!j.is_object())
    throw json_error(path_, "expected an object, got " + json_kind(j));
}

const nlohmann::json& object_reader::at(const char* key, bool required) {
  static const nlohmann::json null_value;
  seen_.insert(key);
  auto i = object_.find(key);
  if (i == object_.end()) {
    if (required)
      throw json_error(path_join(path_, key), "required field is missing");
    return null_value;
  }
  return *i;
}

bool object_reader::has(const char* key) {
  return !at(key, false).is_null();
}

const nlohmann::json& object_reader::raw(const char* key) {
  return at(key, false);
}

void object_reader::done() const {
  for (auto i = object_.begin(); i != object_.end(); ++i)
    if (seen_.count(i.key()) == 0)
      throw json_error(path_join(path_, i.key()), "unknown field");
}

namespace {

/// The 1-based line and column of byte `offset` of `text`.
std::string line_column(const std::string& text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < std::min(offset, text.size()); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Walks `text` for nlohmann's parser one byte at a time, like the pointer
/// it wraps, and records in `*furthest` how far the parser has read (the
/// SAX events themselves carry no position).
class tracked_iterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  tracked_iterator(const char* at, const char** furthest)
      : at_(at), furthest_(furthest) {}

  reference operator*() const { return *at_; }

  tracked_iterator& operator++() {
    *furthest_ = ++at_;
    return *this;
  }

  tracked_iterator operator++(int) {
    auto before = *this;
    ++*this;
    return before;
  }

  bool operator==(const tracked_iterator& other) const { return at_ == other.at_; }
  bool operator!=(const tracked_iterator& other) const { return at_ != other.at_; }

private:
  const char* at_;
  const char** furthest_;
};

/// nlohmann's document builder, refusing an object that has a key twice
/// (nlohmann keeps the last one): it tracks each open object's keys, and
/// where it is in the document for the error's path.
class strict_builder : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
public:
  using base = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

  /// Builds `result` from the text at `begin`, which the parser has read up
  /// to `furthest`.
  strict_builder(nlohmann::json& result, const char* begin, const char* const& furthest)
      : base(result, true), begin_(begin), furthest_(furthest) {}

  bool null() { return element() && base::null(); }
  bool boolean(bool x) { return element() && base::boolean(x); }
  bool number_integer(number_integer_t x) {
    return element() && base::number_integer(x);
  }
  bool number_unsigned(number_unsigned_t x) {
    return element() && base::number_unsigned(x);
  }
  bool number_float(number_float_t x, const string_t& text) {
    return element() && base::number_float(x, text);
  }
  bool string(string_t& x) { return element() && base::string(x); }
  bool binary(binary_t& x) { return element() && base::binary(x); }

  bool start_object(std::size_t n) {
    element();
    open_.emplace_back();
    open_.back().object = true;
    return base::start_object(n);
  }

  bool key(string_t& x) {
    auto& object = open_.back();
    object.key = x;
    if (!object.keys.insert(x).second) {
      duplicate_ = x;
      // The parser has read the key's closing quote: back to its opening one.
      duplicate_at_ = key_start();
      return false;
    }
    return base::key(x);
  }

  bool end_object() {
    open_.pop_back();
    return base::end_object();
  }

  bool start_array(std::size_t n) {
    element();
    open_.emplace_back();
    return base::start_array(n);
  }

  bool end_array() {
    open_.pop_back();
    return base::end_array();
  }

  /// The key given twice.
  const std::string& duplicate() const noexcept { return duplicate_; }

  /// Where the key given twice starts (a byte offset).
  std::size_t duplicate_at() const noexcept { return duplicate_at_; }

  /// The path of the value being read (of the key given twice).
  std::string path() const {
    std::string out;
    for (const auto& x : open_)
      out = x.object ? path_join(out, x.key) : path_index(out, x.count - 1);
    return out;
  }

private:
  struct open_container {
    bool object = false;
    /// An array's elements so far.
    std::size_t count = 0;
    /// An object's keys so far, and its last one.
    std::set<std::string> keys;
    std::string key;
  };

  /// Counts a value that is an array's element; always true.
  bool element() {
    if (!open_.empty() && !open_.back().object)
      ++open_.back().count;
    return true;
  }

  /// The offset of the opening quote of the key just read.
  std::size_t key_start() const {
    auto end = static_cast<std::size_t>(furthest_ - begin_);
    // furthest_ is just past the closing quote; find the opening one, a
    // quote not escaped by an odd run of backslashes.
    for (std::size_t i = end >= 2 ? end - 2 : 0; i > 0; --i) {
      if (begin_[i] != '"')
        continue;
      std::size_t slashes = 0;
      while (slashes < i && begin_[i - 1 - slashes] == '\\')
        ++slashes;
      if (slashes % 2 == 0)
        return i;
    }
    return 0;
  }

  const char* begin_;
  const char* const& furthest_;
  std::vector<open_container> open_;
  std::string duplicate_;
  std::size_t duplicate_at_ = 0;
};

} // namespace

nlohmann::json parse_json(const std::string& text) {
  nlohmann::json result;
  const char* furthest = text.data();
  strict_builder builder{result, text.data(), furthest};
  try {
    auto end = text.data() + text.size();
    if (nlohmann::json::sax_parse(tracked_iterator{text.data(), &furthest},
                                  tracked_iterator{end, &furthest}, &builder))
      return result;
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based and points just past the offending character.
    // nlohmann quotes what it read last: raw bytes, maybe not UTF-8.
    auto what = escape_invalid_utf8(e.what());
    auto pos = what.find("parse error");
    throw json_syntax_error(line_column(text, e.byte > 0 ? e.byte - 1 : 0),
                            "invalid JSON: " +
                                (pos == std::string::npos ? what : what.substr(pos)));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range ("1e800"); it has no position.
    auto what = escape_invalid_utf8(e.what());
    auto pos = what.find("] ");
    throw json_syntax_error(
        {},
        "invalid JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
  }
  // The parse stopped at a key given twice.
  throw json_error(builder.path(), "duplicate key \"" + builder.duplicate() + "\" at " +
                                       line_column(text, builder.duplicate_at()));
}

} // namespace parley::messages
