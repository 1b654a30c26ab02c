#include "actors/coordinator/terms.hpp"

#include <catch2/catch.hpp>

namespace unit_actors_coordinator_terms_test {

using namespace parley::actors::coordinator;

using terms = std::set<std::string>;

TEST_CASE("terms: Chinese runs give pairs of neighbouring ideographs",
          "[unit][coordinator]") {
  CHECK(terms_of("需要场地") == terms{"需要", "要场", "场地"});
  CHECK(terms_of("车") == terms{"车"});
  // CJK punctuation (U+FF0C, U+3002) and the ideographic space end a run.
  CHECK(terms_of("场地，嘉宾。\xE3\x80\x80聚会") == terms{"场地", "嘉宾", "聚会"});
}

TEST_CASE("terms: words are lower-cased, and one-letter and function words are left out",
          "[unit][coordinator]") {
  CHECK(terms_of("I need a Venue and the AI speaker!") ==
        terms{"need", "venue", "ai", "speaker"});
  CHECK(terms_of("Café crème") == terms{"café", "crème"});
}

TEST_CASE("terms: mixed scripts split where the script changes",
          "[unit][coordinator]") {
  CHECK(terms_of("办一场AI主题聚会") ==
        terms{"办一", "一场", "ai", "主题", "题聚", "聚会"});
}

TEST_CASE("terms: stemming cuts ASCII words to five letters", "[unit][coordinator]") {
  CHECK(terms_of("speaker speaking", term_match::stemmed) == terms{"speak"});
  CHECK(terms_of("speaker speaking") == terms{"speaker", "speaking"});
  CHECK(terms_of("venue 场地", term_match::stemmed) == terms{"venue", "场地"});
}

TEST_CASE("terms: bytes that are not UTF-8 separate words", "[unit][coordinator]") {
  CHECK(terms_of("ab\xFF"
                 "cd") == terms{"ab", "cd"});
  CHECK(terms_of("ab\xE5\x9C"
                 "cd") == terms{"ab", "cd"}); // a cut-off 场
  CHECK(terms_of("ab\xC0\xAF"
                 "cd") == terms{"ab", "cd"}); // an overlong '/'
  CHECK(terms_of("").empty());
}

} // namespace unit_actors_coordinator_terms_test
