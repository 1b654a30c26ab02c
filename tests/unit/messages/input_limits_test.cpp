#include "messages/input_limits.hpp"

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "messages/json_reader.hpp"
#include "support/temp_file.hpp"

namespace unit_messages_input_limits_test {

using nlohmann::json;
using parley::messages::check_input_limits;
using parley::messages::json_error;
using parley::messages::max_id_bytes;
using parley::messages::max_json_depth;
using parley::messages::max_text_bytes;
using parley::messages::read_text_file;
using parley::test::temp_file;

namespace {

/// The json_error `check_input_limits(j)` throws ("" if none).
std::string limits_error(const json& j) {
  try {
    check_input_limits(j);
  } catch (const json_error& e) {
    return e.what();
  }
  return {};
}

/// `depth` arrays nested in one another.
json nested(std::size_t depth) {
  json j = json::array();
  for (std::size_t i = 1; i < depth; ++i)
    j = json::array({std::move(j)});
  return j;
}

} // namespace

TEST_CASE("strings up to the text cap pass, longer ones are refused by path",
          "[unit]") {
  json doc = {{"agents", {{{"id", "a"}, {"note", std::string(max_text_bytes, 'x')}}}}};
  CHECK(limits_error(doc).empty());
  doc["agents"][0]["note"] = std::string(max_text_bytes + 1, 'x');
  CHECK(limits_error(doc) ==
        "agents[0].note: must be at most 65536 bytes long, got 65537");
  CHECK(limits_error(json{{"list", {"ok", std::string(max_text_bytes + 1, 'y')}}}) ==
        "list[1]: must be at most 65536 bytes long, got 65537");
  CHECK(limits_error(json(std::string(max_text_bytes + 1, 'z'))) ==
        "(document): must be at most 65536 bytes long, got 65537");
}

TEST_CASE("object keys longer than an id are refused", "[unit]") {
  CHECK(limits_error(json{{"terms", {{std::string(max_id_bytes, 'k'), 1}}}}).empty());
  CHECK(limits_error(json{{"terms", {{std::string(max_id_bytes + 1, 'k'), 1}}}}) ==
        "terms: object keys must be at most 128 bytes long, got one of 129");
}

TEST_CASE("nesting deeper than the cap is refused before anything recurses", "[unit]") {
  CHECK(limits_error(nested(max_json_depth)).empty());
  CHECK_THAT(limits_error(nested(max_json_depth + 1)),
             Catch::EndsWith("objects and arrays must nest at most 64 deep"));
  // A document far deeper than any stack would take is refused as quickly.
  std::string deep(200000, '[');
  deep += std::string(200000, ']');
  CHECK_THAT(limits_error(parley::messages::parse_json(deep)),
             Catch::Contains("must nest at most 64 deep"));
}

TEST_CASE("read_text_file reads files up to the cap and refuses larger ones",
          "[unit]") {
  temp_file file{std::string(2048, 'a')};
  auto read = read_text_file(file.path(), 2048);
  CHECK(read.error.empty());
  CHECK(read.text.size() == 2048);
  auto refused = read_text_file(file.path(), 2047);
  CHECK(refused.error ==
        "the file is larger than the cap of 2047 bytes on input files");
  CHECK(refused.text.empty());
}

TEST_CASE("read_text_file refuses a stream over the cap after cap + 1 bytes",
          "[unit]") {
  // /dev/zero has no size: reading stops one buffer past the cap.
  auto refused = read_text_file("/dev/zero", 1 << 20);
  CHECK(refused.error ==
        "the file is larger than the cap of 1048576 bytes on input files");
}

TEST_CASE("read_text_file says why a file cannot be read", "[unit]") {
  CHECK(read_text_file("/nonexistent/parley.json", 1024).error ==
        "cannot open the file: No such file or directory");
  auto dir = std::filesystem::temp_directory_path().string();
  CHECK(read_text_file(dir, 1024).error == "cannot read the file: Is a directory");
}

TEST_CASE("ids with a control character are refused", "[unit]") {
  using parley::messages::check_id_length;
  auto error_of = [](const std::string& id) -> std::string {
    try {
      check_id_length(id, "id");
    } catch (const json_error& e) {
      return e.what();
    }
    return {};
  };
  CHECK(error_of("caf\xc3\xa9-1").empty());
  CHECK(error_of(std::string{"a\0b", 3}) ==
        "id: must not hold a control character, got U+0000 at byte 1");
  CHECK(error_of("line\n") ==
        "id: must not hold a control character, got U+000A at byte 4");
  CHECK(error_of("del\x7f") ==
        "id: must not hold a control character, got U+007F at byte 3");
  CHECK(error_of("c1\xc2\x85") ==
        "id: must not hold a control character, got U+0085 at byte 2");
}

} // namespace unit_messages_input_limits_test
