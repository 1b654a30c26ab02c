// Issue 11: a real-time `parley run` whose LLM agent's provider misbehaves
// ends with the rule brain's fallback however it writes its events (standard
// output, `-o FILE`, `--audit FILE`, both), and the API key appears in none of
// them. Each provider failure mode plays the four output choices one after
// another (one `parley` process at a time, so as not to crowd the timing tests
// that ctest runs beside), each bounded.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/fake_llm.hpp"
#include "support/process.hpp"

namespace integration_llm_outputs_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::background_process;
using parley::test::fake_llm;
using parley::test::write_temp_file;

namespace {

/// What the runs are given as both providers' key; it must leak nowhere.
const std::string api_key = "sk-parley-outputs-test-7f3a9c";

/// How long a run may take before it counts as hung: it takes about a second
/// (three offers, each answered after at most two short attempts).
constexpr auto run_limit = 20s;

/// A rule agent proposes to an LLM agent whose provider (`provider` wire
/// format at `endpoint`) fails every call. Attempts are short and retried
/// once; the round timeout is short too, so that a lost event or timer would
/// show as a run that does not end, not as a slow one.
std::string scenario(const std::string& provider, const std::string& endpoint,
                     std::int64_t call_timeout_ms = 300,
                     std::int64_t round_timeout_ms = 3000) {
  json plan{{"config",
             {{"negotiation",
               {{"round_timeout_ms", round_timeout_ms}, {"total_timeout_ms", 20000}}},
              {"llm", {{"call_timeout_ms", call_timeout_ms}, {"max_retries", 1}}}}},
            {"agents",
             {{{"id", "alice"}, {"role", "client"}, {"brain", "rule"}},
              {{"id", "bob"},
               {"role", "freelancer"},
               {"brain", "llm"},
               {"provider", provider},
               {"model", "fake"},
               {"endpoint", endpoint}}}},
            {"rooms", {{{"id", "studio"}, {"participants", {"alice", "bob"}}}}},
            {"negotiations",
             {{{"room", "studio"},
               {"initiator", "alice"},
               {"responder", "bob"},
               {"proposal", {{"amount", 10000}}}}}}};
  return plan.dump();
}

std::string read_file(const std::string& path) {
  std::ifstream in{path};
  return std::string{std::istreambuf_iterator<char>{in},
                     std::istreambuf_iterator<char>{}};
}

std::vector<json> json_lines(const std::string& text) {
  std::vector<json> xs;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) {
      auto x = json::parse(line, nullptr, false);
      INFO(line);
      REQUIRE(x.is_object());
      xs.push_back(std::move(x));
    }
  return xs;
}

/// One `parley run` in the background, with or without `-o` and `--audit`.
class output_run {
public:
  output_run(const std::string& plan, const std::string& name, bool to_file, bool audit)
      : label_(name + (to_file ? " -o" : "") + (audit ? " --audit" : "")) {
    auto file = name + (to_file ? "-o" : "") + (audit ? "-audit" : "");
    if (to_file)
      output_ = write_temp_file(file + ".jsonl", "");
    if (audit)
      audit_ = write_temp_file(file + ".audit", "");
    std::vector<std::string> argv{"/usr/bin/env",
                                  "ANTHROPIC_API_KEY=" + api_key,
                                  "OPENAI_API_KEY=" + api_key,
                                  PARLEY_BINARY,
                                  "run",
                                  plan};
    if (to_file)
      argv.insert(argv.end(), {"-o", output_});
    if (audit)
      argv.insert(argv.end(), {"--audit", audit_});
    process_ = std::make_unique<background_process>(argv);
  }

  ~output_run() {
    for (const auto& path : {output_, audit_})
      if (!path.empty())
        std::remove(path.c_str());
  }

  output_run(const output_run&) = delete;
  output_run& operator=(const output_run&) = delete;

  const std::string& label() const noexcept { return label_; }

  /// Its exit code, waited for at most `run_limit` (none: it hung).
  std::optional<int> wait() { return process_->wait_exit(run_limit); }

  /// What the process printed (standard output and error).
  std::string printed() const { return process_->output(); }

  /// The event lines: from the -o file, or what it printed.
  std::string events() const {
    return output_.empty() ? printed() : read_file(output_);
  }

  /// The audit log ("" without --audit).
  std::string audit() const { return audit_.empty() ? "" : read_file(audit_); }

  bool has_audit() const noexcept { return !audit_.empty(); }
  bool to_file() const noexcept { return !output_.empty(); }

private:
  std::string label_;
  std::string output_;
  std::string audit_;
  std::unique_ptr<background_process> process_;
};

/// Plays `plan` four times (no flags, -o, --audit, both); every run must end
/// in time with exit code 0. Returns the runs for their output.
std::vector<std::unique_ptr<output_run>> play_four_ways(const std::string& plan_text,
                                                        const std::string& name) {
  auto plan = write_temp_file(name + ".json", plan_text);
  std::vector<std::unique_ptr<output_run>> runs;
  for (auto to_file : {false, true})
    for (auto audit : {false, true}) {
      auto& run =
          runs.emplace_back(std::make_unique<output_run>(plan, name, to_file, audit));
      auto exit_code = run->wait();
      INFO(run->label() << " printed:\n" << run->printed());
      REQUIRE(exit_code.has_value()); // it hung: killed when `run` goes away
      REQUIRE(*exit_code == 0);
    }
  std::remove(plan.c_str());
  return runs;
}

/// What every run writes, whichever its outputs: the events (then the
/// summary, last) where they were asked for, nothing else on standard
/// output, the audit log with the same events, and the key nowhere.
void check_outputs(const output_run& run, const json& summary) {
  INFO(run.label() << " printed:\n" << run.printed() << "\nevents:\n" << run.events());
  auto events = json_lines(run.events());
  REQUIRE(!events.empty());
  auto last = events.back();
  events.pop_back();
  for (const auto& [key, value] : summary.items())
    CHECK(last.value(key, json()) == value);
  if (run.to_file())
    CHECK(run.printed().empty());
  CHECK(run.printed().find(api_key) == std::string::npos);
  CHECK(run.events().find(api_key) == std::string::npos);
  if (!run.has_audit())
    return;
  auto audit = run.audit();
  CHECK(audit.find(api_key) == std::string::npos);
  auto records = json_lines(audit);
  // One record per event printed, in the same order of topics.
  REQUIRE(records.size() == events.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    CHECK(records[i].value("seq", 0) == static_cast<int>(i + 1));
    CHECK(records[i].value("topic", "") == events[i].value("type", ""));
  }
}

/// Every provider failure ends the same way: bob's rule brain answers each
/// of alice's three offers (counter, counter, accept), every decision marked
/// as a fallback, and the deal is agreed.
void ends_with_fallback(const std::string& provider, const json& response,
                        const std::string& name) {
  fake_llm server{json{{"responses", json::array()}, {"default", response}}.dump()};
  auto runs = play_four_ways(scenario(provider, server.base_url()), name);
  for (const auto& run : runs) {
    check_outputs(*run, {{"type", "summary"},
                         {"negotiations", 1},
                         {"accepted", 1},
                         {"expired", 0},
                         {"errors", 0}});
    INFO(run->label() << " events:\n" << run->events());
    std::vector<std::string> decisions;
    for (const auto& e : json_lines(run->events()))
      if (e.value("type", "") == "agent.decision") {
        CHECK(e.value("agent_id", "") == "bob");
        CHECK(e.value("fallback", false));
        decisions.push_back(e.value("decision", ""));
      }
    CHECK(decisions == std::vector<std::string>{"counter", "counter", "accept"});
  }
}

} // namespace

TEST_CASE("a garbage body falls back and ends with every output", "[integration]") {
  ends_with_fallback("anthropic", {{"raw", "{not json"}}, "garbage");
}

TEST_CASE("HTTP 500 falls back and ends with every output", "[integration]") {
  ends_with_fallback("openai", {{"status", 500}}, "http500");
}

TEST_CASE("a provider that never answers falls back and ends with every output",
          "[integration]") {
  // Far longer than an attempt may take; the fake is killed after the test.
  ends_with_fallback("anthropic", {{"delay_ms", 60000}}, "silent");
}

TEST_CASE("a 20 MB body falls back and ends with every output", "[integration]") {
  ends_with_fallback("openai", {{"body_bytes", 20 << 20}}, "huge");
}

TEST_CASE("a reply of the wrong JSON shape falls back and ends with every output",
          "[integration]") {
  ends_with_fallback("anthropic",
                     {{"raw", R"({"id":"msg_1","content":{"text":"not a list"}})"}},
                     "shape");
}

TEST_CASE("a connection closed mid-body falls back and ends with every output",
          "[integration]") {
  ends_with_fallback("openai",
                     {{"content", {{{"type", "text"}, {"text", "I will counter."}}}},
                      {"cut_after", 20}},
                     "cut");
}

TEST_CASE("the round timeout still ends a run with every output", "[integration]") {
  // The attempt outlasts the round: the negotiation expires while bob's
  // model is still being asked, and the run ends once the attempt times out.
  fake_llm server{
      json{{"responses", json::array()}, {"default", {{"delay_ms", 60000}}}}.dump()};
  auto runs = play_four_ways(scenario("anthropic", server.base_url(), 1000, 300),
                             "round_timeout");
  for (const auto& run : runs)
    check_outputs(*run, {{"type", "summary"},
                         {"negotiations", 1},
                         {"accepted", 0},
                         {"expired", 1},
                         {"errors", 0}});
}

} // namespace integration_llm_outputs_test
