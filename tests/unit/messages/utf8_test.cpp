#include "messages/utf8.hpp"

#include <string>

#include <catch2/catch.hpp>

namespace unit_messages_utf8_test {

using parley::messages::escape_invalid_utf8;
using parley::messages::find_control_character;
using parley::messages::is_utf8;
using parley::messages::utf8_prefix;

TEST_CASE("well-formed UTF-8 is RFC 3629's", "[unit]") {
  CHECK(is_utf8(""));
  CHECK(is_utf8("plain"));
  CHECK(is_utf8("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  CHECK(is_utf8("\xf4\x8f\xbf\xbf")); // U+10FFFF
  CHECK_FALSE(is_utf8("\xff"));
  CHECK_FALSE(is_utf8("\xc0\xaf"));         // overlong '/'
  CHECK_FALSE(is_utf8("\xe0\x80\xaf"));     // overlong
  CHECK_FALSE(is_utf8("\xed\xa0\x80"));     // a surrogate
  CHECK_FALSE(is_utf8("\xf4\x90\x80\x80")); // past U+10FFFF
  CHECK_FALSE(is_utf8("\xe2\x82"));         // cut short
  CHECK_FALSE(is_utf8("a\x80"));            // a lone continuation byte
}

TEST_CASE(
    "escape_invalid_utf8 writes each stray byte as a backslash, x and two hex digits",
    "[unit]") {
  CHECK(escape_invalid_utf8("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(escape_invalid_utf8("/assets/\xff") == "/assets/\\xFF");
  CHECK(escape_invalid_utf8("a\xe2\x82") == "a\\xE2\\x82");
  CHECK(escape_invalid_utf8("\xed\xa0\x80z") == "\\xED\\xA0\\x80z");
  CHECK(is_utf8(escape_invalid_utf8("\x80\xc0\xff\xf5")));
}

TEST_CASE("utf8_prefix does not cut a sequence", "[unit]") {
  CHECK(utf8_prefix("abc", 5) == "abc");
  CHECK(utf8_prefix("abc", 2) == "ab");
  CHECK(utf8_prefix("a\xe2\x82\xac", 3) == "a");
  CHECK(utf8_prefix("a\xe2\x82\xac", 4) == "a\xe2\x82\xac");
  CHECK(utf8_prefix("a\xf0\x9f\x98\x80z", 2) == "a");
}

TEST_CASE("control characters are C0, DEL and C1", "[unit]") {
  CHECK(find_control_character("caf\xc3\xa9 \xe2\x82\xac") == std::string::npos);
  CHECK(find_control_character(std::string{"ab\0", 3}) == 2);
  CHECK(find_control_character("\t") == 0);
  CHECK(find_control_character("x\x7f") == 1);
  CHECK(find_control_character("x\xc2\x9f") == 1);
  CHECK(find_control_character("x\xc2\xa0") == std::string::npos); // NBSP
}

} // namespace unit_messages_utf8_test
