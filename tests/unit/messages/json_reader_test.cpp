#include "messages/json_reader.hpp"

#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "messages/json.hpp"

namespace unit_messages_json_reader_test {

using nlohmann::json;
using parley::messages::agent_counter;
using parley::messages::error_code;
using parley::messages::from_json_value;
using parley::messages::json_error;
using parley::messages::negotiation_record;
using parley::messages::negotiation_round;
using parley::messages::negotiation_settings;
using parley::messages::negotiation_status;
using parley::messages::parse_json;
using parley::messages::proposal;
using parley::messages::round_action;
using parley::messages::timer_due;

namespace {

/// Reads `j` as a T and returns the json_error it throws ("" if none).
template <class T> std::string error_of(const json& j) {
  try {
    from_json_value<T>(j);
  } catch (const json_error& e) {
    return e.what();
  }
  return "";
}

/// The path of the json_error reading `j` as a T throws.
template <class T> std::string path_of(const json& j) {
  try {
    from_json_value<T>(j);
  } catch (const json_error& e) {
    return e.path();
  }
  return "(no error)";
}

std::string parse_error_of(const std::string& text) {
  try {
    parse_json(text);
  } catch (const json_error& e) {
    return e.what();
  }
  return "";
}

json valid_proposal() {
  return json{{"amount", 100000}, {"currency", "GBP"}};
}

/// A valid record with two rounds, written by hand as a client would.
json valid_record() {
  auto round = [](int n, const char* from, const char* action, int amount) {
    return json{{"round", n},
                {"from_agent", from},
                {"proposal", {{"amount", amount}}},
                {"action", action},
                {"timestamp", 1700000000000 + n}};
  };
  return json{
      {"id", "neg_1"},
      {"room_id", "room-a"},
      {"status", "countering"},
      {"initiator", "alice"},
      {"responder", "bob"},
      {"current_proposal", {{"amount", 80000}}},
      {"rounds",
       {round(1, "alice", "propose", 100000), round(2, "bob", "counter", 80000)}},
      {"max_rounds", 5},
      {"round_timeout_ms", 30000},
      {"total_timeout_ms", 120000},
      {"convergence_score", 0.8},
      {"created_at", 1700000000000},
      {"updated_at", 1700000000002},
      {"expires_at", 1700000120000}};
}

} // namespace

// -- reading values -----------------------------------------------------------

TEST_CASE("a hand-written record reads with defaults for optional fields", "[unit]") {
  auto x = from_json_value<negotiation_record>(valid_record());
  CHECK(x.id == "neg_1");
  CHECK(x.status == negotiation_status::countering);
  CHECK(x.intent_id.empty());
  CHECK_FALSE(x.final_proposal);
  REQUIRE(x.rounds.size() == 2);
  CHECK(x.rounds[1].action == round_action::counter);
  CHECK(x.rounds[1].proposal.amount == 80000);
  CHECK(x.rounds[1].proposal.currency == "GBP");
  CHECK(x.rounds[1].proposal.terms.text == "{}");
  CHECK(x.rounds[1].reason.empty());
  CHECK(x.convergence_score == 0.8);
  CHECK(x.incentive_split.agent == 0.70);
}

TEST_CASE("a null optional field reads as absent", "[unit]") {
  auto j = valid_record();
  j["final_proposal"] = nullptr;
  CHECK_FALSE(from_json_value<negotiation_record>(j).final_proposal);
  j["final_proposal"] = valid_proposal();
  auto x = from_json_value<negotiation_record>(j);
  REQUIRE(x.final_proposal);
  CHECK(x.final_proposal->amount == 100000);
}

// -- error paths --------------------------------------------------------------

TEST_CASE("a missing required field is named", "[unit]") {
  CHECK(error_of<proposal>(json::object()) == "amount: required field is missing");
  auto j = valid_record();
  j.erase("responder");
  CHECK(error_of<negotiation_record>(j) == "responder: required field is missing");
}

TEST_CASE("an unknown field is refused, however deep", "[unit]") {
  auto p = valid_proposal();
  p["colour"] = "blue";
  CHECK(error_of<proposal>(p) == "colour: unknown field");
  auto j = valid_record();
  j["current_proposal"]["amout"] = 5;
  CHECK(error_of<negotiation_record>(j) == "current_proposal.amout: unknown field");
}

TEST_CASE("a value of the wrong type names what was expected and what came", "[unit]") {
  auto p = valid_proposal();
  SECTION("a string for an integer") {
    p["amount"] = "100000";
    CHECK(error_of<proposal>(p) == "amount: expected an integer, got a string");
  }
  SECTION("a fraction for an integer") {
    p["amount"] = 1000.5;
    CHECK(error_of<proposal>(p) ==
          "amount: expected an integer, got a number with a fraction");
  }
  SECTION("a number for a string") {
    p["currency"] = 826;
    CHECK(error_of<proposal>(p) == "currency: expected a string, got an integer");
  }
  SECTION("a string for a boolean") {
    p["escrow"] = "yes";
    CHECK(error_of<proposal>(p) == "escrow: expected true or false, got a string");
  }
  SECTION("an array for the terms object") {
    p["terms"] = json::array({1, 2});
    CHECK(error_of<proposal>(p) == "terms: expected a JSON object, got an array");
  }
  SECTION("an array for the whole document") {
    CHECK(error_of<proposal>(json::array()) ==
          "(document): expected an object, got an array");
    CHECK(path_of<proposal>(json::array()).empty());
  }
}

TEST_CASE("an enum accepts only its snake_case names", "[unit]") {
  auto j = valid_record();
  j["status"] = "done";
  CHECK(error_of<negotiation_record>(j) ==
        "status: expected one of proposed | countering | accepted | rejected | "
        "expired, got \"done\"");
  j["status"] = 1;
  CHECK(error_of<negotiation_record>(j) ==
        "status: expected one of proposed | countering | accepted | rejected | "
        "expired, got an integer");
}

TEST_CASE("an error code reads only as E0xx", "[unit]") {
  CHECK(from_json_value<error_code>(json("E014")) == error_code::out_of_turn);
  CHECK(error_of<error_code>(json("E999")) ==
        "(document): expected an error code such as \"E012\", got \"E999\"");
  CHECK(error_of<error_code>(json(14)) ==
        "(document): expected a string, got an integer");
}

TEST_CASE("integers out of range are refused", "[unit]") {
  SECTION("int32 field above 2^31 - 1") {
    auto j = json{{"max_rounds", 3000000000LL}};
    CHECK(error_of<negotiation_settings>(j) ==
          "max_rounds: integer out of range: 3000000000");
  }
  SECTION("int32 field below -2^31") {
    auto j = json{{"max_rounds", -3000000000LL}};
    CHECK(error_of<negotiation_settings>(j) ==
          "max_rounds: integer out of range: -3000000000");
  }
  SECTION("int64 field above 2^63 - 1") {
    auto p = valid_proposal();
    p["amount"] = 9223372036854775808ULL;
    CHECK(error_of<proposal>(p) == "amount: integer too large");
  }
  SECTION("int64 field at 2^63 - 1 is fine") {
    auto p = valid_proposal();
    p["amount"] = 9223372036854775807LL;
    CHECK(from_json_value<proposal>(p).amount == 9223372036854775807LL);
  }
  SECTION("negative for an unsigned field") {
    CHECK(error_of<timer_due>(json{{"generation", -1}}) ==
          "generation: expected a non-negative integer, got an integer");
  }
  SECTION("the largest unsigned value is fine") {
    CHECK(from_json_value<timer_due>(json{{"generation", 18446744073709551615ULL}})
              .generation == 18446744073709551615ULL);
  }
}

TEST_CASE("errors inside arrays name the index path", "[unit]") {
  auto j = valid_record();
  SECTION("a wrong type deep inside a round") {
    j["rounds"][1]["proposal"]["amount"] = "lots";
    CHECK(error_of<negotiation_record>(j) ==
          "rounds[1].proposal.amount: expected an integer, got a string");
    CHECK(path_of<negotiation_record>(j) == "rounds[1].proposal.amount");
  }
  SECTION("a missing field in the first round") {
    j["rounds"][0].erase("from_agent");
    CHECK(error_of<negotiation_record>(j) ==
          "rounds[0].from_agent: required field is missing");
  }
  SECTION("a bad enum in a round") {
    j["rounds"][1]["action"] = "haggle";
    CHECK(path_of<negotiation_record>(j) == "rounds[1].action");
  }
  SECTION("an object where the array should be") {
    j["rounds"] = json::object();
    CHECK(error_of<negotiation_record>(j) ==
          "rounds: expected an array, got an object");
  }
  SECTION("a round that is not an object") {
    j["rounds"][1] = 7;
    CHECK(error_of<negotiation_record>(j) ==
          "rounds[1]: expected an object, got an integer");
  }
}

TEST_CASE("an agent message's type tag must match", "[unit]") {
  auto j = json{{"type", "agent_accept"},
                {"message_id", "m-1"},
                {"negotiation_id", "neg_1"},
                {"from_agent", "bob"},
                {"proposal", valid_proposal()}};
  CHECK(error_of<agent_counter>(j) ==
        "type: expected \"agent_counter\", got \"agent_accept\"");
  j.erase("type");
  auto x = from_json_value<agent_counter>(j);
  CHECK(x.from_agent == "bob");
  CHECK(x.reason.empty());
}

TEST_CASE("settings are validated after reading", "[unit]") {
  CHECK(error_of<negotiation_settings>(json{{"max_rounds", 21}}) ==
        "(document): max_rounds must be within 1..20, got 21");
  auto split = json{{"agent", 0.9}, {"broker", 0.1}, {"validator", 0.1}, {"pool", 0.1}};
  CHECK(path_of<negotiation_settings>(json{{"incentive_split", split}}) ==
        "incentive_split");
}

// -- parse_json ---------------------------------------------------------------

TEST_CASE("parse_json reports the line and column of bad syntax", "[unit]") {
  // The ']' is the 8th character of line 3.
  auto what = parse_error_of("{\n  \"a\": 1,\n  \"b\": ]\n}");
  CHECK(what.rfind("line 3, column 8: invalid JSON: parse error", 0) == 0);
}

TEST_CASE("parse_json counts columns on the first line from 1", "[unit]") {
  // "[1,,2]": the second ',' is the 4th character.
  CHECK(parse_error_of("[1,,2]").rfind("line 1, column 4: invalid JSON", 0) == 0);
}

TEST_CASE("parse_json reports a truncated document", "[unit]") {
  auto what = parse_error_of("{\n  \"a\": [1, 2");
  CHECK(what.rfind("line 2, column ", 0) == 0);
  CHECK(what.find("invalid JSON: parse error") != std::string::npos);
}

TEST_CASE("parse_json refuses a number beyond a double's range", "[unit]") {
  // Found by config_fuzz: nlohmann throws out_of_range (406), not parse_error.
  CHECK(parse_error_of(R"({"total_timeout_ms": 12E800})") ==
        "(document): invalid JSON: number overflow parsing '12E800'");
  CHECK(parse_error_of("-1e400") ==
        "(document): invalid JSON: number overflow parsing '-1e400'");
}

TEST_CASE("parse_json reads a valid document", "[unit]") {
  auto j = parse_json(R"({"amount": 5, "terms": {"a": [1, 2]}})");
  CHECK(j.at("amount") == 5);
  CHECK(from_json_value<proposal>(j).terms.text == R"({"a":[1,2]})");
}

TEST_CASE("parse_json refuses a key given twice at its path, line and column",
          "[unit]") {
  CHECK(parse_error_of(R"({"a": 1, "a": 2})") ==
        "a: duplicate key \"a\" at line 1, column 10");
  const std::string twice = R"({"agents": [{"id": "x"},
  {"id": "y", "id": "z"}]})";
  CHECK(parse_error_of(twice) ==
        "agents[1].id: duplicate key \"id\" at line 2, column 15");
  CHECK(parse_error_of(R"({"t": {"k": [1, {"q": 1, "q": 1}]}})") ==
        "t.k[1].q: duplicate key \"q\" at line 1, column 26");
  // The same key once escaped, and keys holding escaped quotes.
  CHECK(parse_error_of(R"({"ab": 1, "\u0061b": 2})") ==
        "ab: duplicate key \"ab\" at line 1, column 11");
  CHECK(parse_error_of(R"({"a\"": 1, "a\"": 2})") ==
        "a\": duplicate key \"a\"\" at line 1, column 12");
  CHECK(parse_error_of(R"({"": 1, "": 2})") ==
        "(document): duplicate key \"\" at line 1, column 9");
}

TEST_CASE("parse_json takes the same key in different objects", "[unit]") {
  auto j = parse_json(R"({"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}], "c": {"a": 3}})");
  CHECK(j["b"][1]["a"] == 2);
  CHECK(j["c"]["a"] == 3);
}

TEST_CASE("parse_json quotes no byte that is not UTF-8", "[unit]") {
  try {
    parse_json("{\"id\": \"a\xff\"}");
    FAIL("parsed");
  } catch (const parley::messages::json_syntax_error& e) {
    std::string what = e.what();
    CHECK(what.find('\xff') == std::string::npos);
    CHECK_THAT(what, Catch::Contains("\\xFF"));
  }
}

} // namespace unit_messages_json_reader_test
