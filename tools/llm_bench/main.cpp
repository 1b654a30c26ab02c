// llm_bench: N concurrent negotiations between LLM agents against the fake
// provider (parley_fake_llm) answering after a fixed delay, through one HTTP
// client with a concurrency limit. Verifies every outcome and the number of
// calls, prints one summary line, exits non-zero on any wrong outcome.
//
//   parley_llm_bench FAKE_LLM_BINARY [N=1000] [DELAY_MS=50] [LIMIT=64]

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <csignal>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/exit_reason.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"

using nlohmann::json;
using namespace parley;

namespace {

struct tally {
  std::atomic<int> agreed{0};
  std::atomic<int> other{0};
  std::atomic<int> fallbacks{0};
};

actors::subscriber_actor::behavior_type counter(actors::subscriber_actor::pointer,
                                                std::shared_ptr<tally> t) {
  return {
      [t](const messages::negotiation_event& x) {
        if (x.kind == messages::negotiation_event_kind::agreed)
          ++t->agreed;
        else if (messages::is_terminal(x))
          ++t->other;
      },
      [t](const messages::agent_event& x) {
        if (x.fallback)
          ++t->fallbacks;
      },
      [](const messages::problem_event&) {},
      [](const messages::ballot_event&) {},
      [](const messages::auction_event&) {},
      [](const messages::channel_event&) {},
      [](const messages::barrier&) {},
  };
}

json tool(const std::string& match, json input) {
  return {{"match", match},
          {"repeat", true},
          {"content",
           {{{"type", "tool_use"},
             {"id", "t"},
             {"name", "evaluate_proposal"},
             {"input", input}}}},
          {"stop_reason", "tool_use"}};
}

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: parley_llm_bench FAKE_LLM [N] [DELAY_MS] [LIMIT]\n");
    return 2;
  }
  int n = argc > 2 ? std::atoi(argv[2]) : 1000;
  int delay = argc > 3 ? std::atoi(argv[3]) : 50;
  int limit = argc > 4 ? std::atoi(argv[4]) : 64;
  json script = {
      {"responses",
       {tool("INCOMING PROPOSAL", {{"decision", "counter"},
                                   {"reason", "a little more"},
                                   {"counter_proposal", {{"amount", 11000}}}}),
        tool("COUNTER-PROPOSAL", {{"decision", "accept"}, {"reason", "fair"}})}},
      {"default",
       {{"content", {{{"type", "text"}, {"text", "ok"}}}},
        {"stop_reason", "end_turn"}}}};
  for (auto& r : script["responses"])
    r["delay_ms"] = delay;
  script["default"]["delay_ms"] = delay;
  auto path = "/tmp/parley_llm_bench_" + std::to_string(getpid()) + ".json";
  std::ofstream{path} << script.dump();
  int out[2];
  if (pipe(out) != 0)
    return 1;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], STDOUT_FILENO);
    execl(argv[1], argv[1], "--script", path.c_str(), "--port", "0",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  std::string line;
  pollfd p{out[0], POLLIN, 0};
  while (line.find('\n') == std::string::npos && poll(&p, 1, 5000) > 0) {
    char buf[64];
    auto got = read(out[0], buf, sizeof buf);
    if (got <= 0)
      break;
    line.append(buf, static_cast<std::size_t>(got));
  }
  auto at = line.find("listening on ");
  if (at == std::string::npos) {
    std::fprintf(stderr, "the fake provider did not start\n");
    kill(pid, SIGKILL);
    return 1;
  }
  auto base_url = "http://127.0.0.1:" + std::to_string(std::stoi(line.substr(at + 13)));

  int rc = 0;
  {
    caf::actor_system_config cfg;
    runtime::configure(cfg, runtime::system_options{false, 2, false, {}});
    caf::actor_system sys{cfg};
    auto t = std::make_shared<tally>();
    config::settings settings;
    settings.llm.provider = "anthropic";
    settings.llm.base_url = base_url;
    settings.llm.max_concurrent_calls = limit;
    settings.llm.call_timeout_ms = 30000;
    runtime::world w{sys, settings};
    auto rec = sys.spawn(counter, t);
    w.events().subscribe(messages::topic_set::all(), rec);
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) {
      auto make = [&](const std::string& id, const std::string& role) {
        messages::agent_spec spec;
        spec.id = id;
        spec.profile.role = role;
        spec.brain.kind = messages::brain_kind::llm;
        return w.add_agent(std::move(spec));
      };
      auto alice = make("alice", "client");
      auto bob = make("bob", "freelancer");
      auto room = w.add_rooms({w.room_spec("room-" + std::to_string(i),
                                           {{"alice", alice, true}, {"bob", bob, true}},
                                           static_cast<std::uint64_t>(i))})
                      .front();
      messages::proposal prop;
      prop.amount = 10000;
      prop.description = "Logo";
      caf::anon_send(room, messages::start_negotiation{
                               "bench:" + std::to_string(i), "alice", "bob", prop, {}});
    }
    auto deadline = start + std::chrono::seconds(120);
    // Each negotiation takes 5 calls; the last (bob hearing the accept) ends
    // after the agreement, so wait for the provider's count too.
    auto expected_calls = 5 * n;
    int calls = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      if (t->agreed + t->other >= n) {
        auto c = std::system(("test \"$(curl -s --max-time 5 " + base_url +
                              "/count)\" -ge " + std::to_string(expected_calls))
                                 .c_str());
        if (c == 0)
          break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    auto secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    FILE* f = popen(("curl -s --max-time 5 " + base_url + "/count").c_str(), "r");
    if (f != nullptr) {
      if (std::fscanf(f, "%d", &calls) != 1)
        calls = -1;
      pclose(f);
    }
    double bound = limit * 1000.0 / delay;
    std::printf("{\"bench\":\"llm\",\"negotiations\":%d,\"agreed\":%d,\"other\":%d,"
                "\"fallbacks\":%d,\"calls\":%d,\"expected_calls\":%d,\"seconds\":%.3f,"
                "\"calls_per_s\":%.1f,\"bound_calls_per_s\":%.1f,\"of_bound\":%.3f,"
                "\"limit\":%d,\"delay_ms\":%d}\n",
                n, t->agreed.load(), t->other.load(), t->fallbacks.load(), calls,
                expected_calls, secs, calls / secs, bound, calls / secs / bound, limit,
                delay);
    if (t->agreed != n || t->fallbacks != 0 || calls != expected_calls)
      rc = 1;
    w.stop();
    caf::anon_send_exit(rec, caf::exit_reason::user_shutdown);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  std::remove(path.c_str());
  return rc;
}
