// `parley tournament` end to end: the four files, the same CSV bytes for
// any --jobs, coded refusals of a bad spec, and report.html in a real
// headless Chromium (support/webdriver.hpp). Leaves a screenshot of the
// report in the build folder's tournament-report.png, or where
// PARLEY_REPORT_SCREENSHOT says (the README's docs/tournament-report.png is
// refreshed that way).

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <system_error>

#include <catch2/catch.hpp>

#include "support/process.hpp"
#include "support/temp_file.hpp"
#include "support/webdriver.hpp"

namespace integration_tournament_test {

namespace fs = std::filesystem;
using parley::test::run_parley;

namespace {

const std::string quick_spec = PARLEY_SOURCE_DIR "/examples/tournaments/quick.json";

/// A fresh folder in the temporary directory, removed when the test ends.
class temp_folder {
public:
  temp_folder()
      : path_(fs::temp_directory_path() /
              ("parley_tournament_" + std::to_string(std::random_device{}()))) {}
  ~temp_folder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;

  std::string operator/(const std::string& name) const {
    return (path_ / name).string();
  }
  std::string path() const { return path_.string(); }

private:
  fs::path path_;
};

std::string contents(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

TEST_CASE("a tournament writes its tables and report, the same for any --jobs",
          "[integration][tournament]") {
  temp_folder one;
  temp_folder two;
  auto first = run_parley("tournament " + quick_spec + " --out " + one.path() +
                          " --jobs 1 --seed 5");
  INFO(first.output);
  REQUIRE(first.exit_code == 0);
  // 10 strategies squared x 3 scenarios x 3 repetitions x 2 openers.
  CHECK_THAT(first.output,
             Catch::StartsWith("TOURNAMENT N=1800 strategies=10 "
                               "scenarios=3 repetitions=3 jobs=1 seed=5 "));
  CHECK_THAT(first.output, Catch::Contains(" negotiations_per_s="));
  auto second = run_parley("tournament " + quick_spec + " --out " + two.path() +
                           " --jobs 2 --seed 5");
  REQUIRE(second.exit_code == 0);
  for (const char* table : {"negotiations.csv", "scores.csv", "scenarios.csv"}) {
    CAPTURE(table);
    auto a = contents(one / table);
    CHECK_FALSE(a.empty());
    CHECK(a == contents(two / table));
  }
  auto negotiations = contents(one / "negotiations.csv");
  CHECK(std::count(negotiations.begin(), negotiations.end(), '\n') == 1801);
  CHECK_THAT(negotiations,
             Catch::StartsWith("index,scenario,repetition,buyer_strategy,"));
  auto scores = contents(one / "scores.csv");
  CHECK(std::count(scores.begin(), scores.end(), '\n') == 11);
  auto report = contents(one / "report.html");
  CHECK_THAT(report, Catch::StartsWith("<!doctype html>"));
  CHECK(report.find("<script") == std::string::npos);
  CHECK(report.size() < 2'000'000);
  // Another seed, other noise: other numbers.
  temp_folder three;
  REQUIRE(run_parley("tournament " + quick_spec + " --out " + three.path() +
                     " --jobs 2 --seed 6")
              .exit_code == 0);
  CHECK(contents(three / "negotiations.csv") != negotiations);
}

TEST_CASE("a bad tournament spec is refused with the field at fault and exit 2",
          "[integration][tournament]") {
  temp_folder out;
  parley::test::temp_file spec{R"({"strategies": ["linear", "sneaky"],
    "scenarios": [{"name": "x", "domain": {"amount": {"min": 0, "max": 10}},
                   "buyer": {}, "seller": {}}]})"};
  auto result = run_parley("tournament " + spec.path() + " --out " + out.path());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.output, Catch::Contains("parley: bad tournament spec: "));
  CHECK_THAT(result.output,
             Catch::Contains("strategies[1]: unknown strategy \"sneaky\""));
  CHECK_FALSE(fs::exists(out / "report.html"));
  auto missing = run_parley("tournament " + quick_spec);
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.output, Catch::Contains("--out is required"));
}

TEST_CASE("the tournament report renders in a headless browser",
          "[integration][tournament][browser]") {
  if (!parley::test::browser_available()) {
    WARN(parley::test::browser_missing);
    SUCCEED();
    return;
  }
  temp_folder out;
  REQUIRE(run_parley("tournament " + quick_spec + " --out " + out.path()).exit_code ==
          0);
  parley::test::browser page;
  page.open("file://" + (out / "report.html"));
  CHECK(page.run("return document.title;").get<std::string>() == "Parley tournament");
  // A plot of each of the three scenarios' utility space, and the score table
  // with a row per strategy.
  CHECK(page.run("return document.querySelectorAll('svg').length;").get<int>() >= 3);
  CHECK(page.run("return document.body.innerText.indexOf('tit_for_tat') >= 0;")
            .get<bool>());
  CHECK(page.run("return document.body.innerText.indexOf('website_redesign') >= 0;")
            .get<bool>());
  const char* where = std::getenv("PARLEY_REPORT_SCREENSHOT");
  page.screenshot(where != nullptr ? where : PARLEY_BUILD_DIR "/tournament-report.png");
}

} // namespace integration_tournament_test
