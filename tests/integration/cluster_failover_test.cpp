// Three `parley serve --cluster` nodes with mutual TLS over one PostgreSQL,
// one of them killed with SIGKILL at a random moment twenty times, under
// moves sent round-robin to all three (docs/cluster.md, "Ownership and
// take-over", "Any node answers"): every move answered 2xx is in the store
// once and in order, every killed incarnation is taken over exactly once,
// and every negotiation ends.

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sys/types.h>

#include "actors/store/backend.hpp"
#include "support/api_client.hpp"
#include "support/certificates.hpp"
#include "support/cluster_nodes.hpp"

namespace integration_cluster_failover_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::cluster_node;
namespace store = parley::actors::store;

namespace {

constexpr int kills = 20;
/// Negotiations driven at once while the kills go on.
constexpr std::size_t pool = 6;
/// Each negotiation's rounds: counters up to the last, which accepts.
constexpr int max_rounds = 12;
const std::array<std::string, 3> names{"node-a", "node-b", "node-c"};

/// One negotiation as the driver knows it: the rounds of its record in the
/// last answer, and the message ids of its moves answered 2xx.
struct driven {
  std::string id;
  std::string buyer;
  std::string seller;
  std::size_t rounds = 1;
  bool ended = false;
  std::vector<std::string> acknowledged;
};

/// The body of round `round`'s move: the seller's on even rounds, the
/// buyer's on odd ones; counters converging on 15000, the last an accept.
json move_of(const driven& x, std::size_t round) {
  auto from = round % 2 == 0 ? x.seller : x.buyer;
  auto message_id = "r" + std::to_string(round);
  if (round == max_rounds)
    return parley::test::simple_move(message_id, from, "accept");
  auto step = static_cast<std::int64_t>(round) * 400;
  return parley::test::counter(message_id, from,
                               round % 2 == 0 ? 20000 - step : 10000 + step);
}

/// The nodes, and what the killing thread shares with the driving one:
/// each node's PID and whether it was killed and not started again yet,
/// and how many moves the driver has sent.
struct shared_state {
  std::mutex mutex;
  std::condition_variable changed;
  std::array<pid_t, 3> pids{};
  std::array<bool, 3> down{};
  int killed = 0;
  std::int64_t attempts = 0;
  bool stop = false;
};

/// Kills a random live node each time the driver has sent another 4..16
/// moves (a random moment of the load: the driver is in the middle of one),
/// once the node killed before is serving again, `kills` times.
void kill_at_random(shared_state& s, std::uint32_t seed) {
  std::mt19937 rng{seed};
  std::unique_lock<std::mutex> lock{s.mutex};
  for (int k = 0; k < kills; ++k) {
    auto target = s.attempts + std::uniform_int_distribution<int>{4, 16}(rng);
    s.changed.wait(lock, [&] {
      return s.stop ||
             (s.attempts >= target &&
              std::none_of(s.down.begin(), s.down.end(), [](bool d) { return d; }));
    });
    if (s.stop)
      return;
    auto i = std::uniform_int_distribution<std::size_t>{0, 2}(rng);
    ::kill(s.pids[i], SIGKILL);
    s.down[i] = true;
    ++s.killed;
    s.changed.notify_all();
  }
}

/// How many times each incarnation was taken over, by the "took over"
/// lines of every serve's output.
std::map<std::int64_t, int> take_overs(const std::vector<std::string>& outputs) {
  static const std::regex line{"took over incarnations? ([0-9, ]+) \\("};
  std::map<std::int64_t, int> out;
  for (const auto& text : outputs)
    for (std::sregex_iterator i{text.begin(), text.end(), line}, end; i != end; ++i) {
      auto list = (*i)[1].str();
      static const std::regex number{"[0-9]+"};
      for (std::sregex_iterator j{list.begin(), list.end(), number}; j != end; ++j)
        ++out[std::stoll(j->str())];
    }
  return out;
}

/// Every negotiation of the store, read through `api`, page by page.
std::vector<json> all_negotiations(api_client& api) {
  std::vector<json> out;
  std::string cursor;
  do {
    auto page = api.get("/api/v1/negotiations?limit=500" +
                        (cursor.empty() ? std::string{} : "&cursor=" + cursor));
    REQUIRE(page.status == 200);
    for (const auto& r : page.body["records"])
      out.push_back(r);
    cursor = page.body.value("next_cursor", "");
  } while (!cursor.empty());
  return out;
}

/// Whether `record` ended: accepted after all its rounds, or expired no
/// earlier than its round's deadline and within 5 s of it (a deadline that
/// passed while no node ran it expires it when it is taken over).
bool ended_well(const json& record) {
  auto status = record["status"].get<std::string>();
  if (status == "accepted")
    return true;
  if (status != "expired")
    return false;
  auto deadline = std::min(record["rounds"].back()["timestamp"].get<std::int64_t>() +
                               record["round_timeout_ms"].get<std::int64_t>(),
                           record["expires_at"].get<std::int64_t>());
  auto at = record["updated_at"].get<std::int64_t>();
  return at >= deadline && at <= deadline + 5000;
}

} // namespace

TEST_CASE("kill -9 of a random node 20 times under moves sent to every node: each "
          "acknowledged move is stored once, each dead incarnation taken over once",
          "[integration][postgresql]") {
  auto url = parley::test::fresh_cluster_database("cluster_failover_kills");
  if (url.empty())
    return;
  parley::test::certificates certs{{names[0], names[1], names[2]}, {}};
  auto start_node = [&](std::size_t i) {
    return std::make_unique<cluster_node>(url, names[i],
                                          certs.flags("cluster", names[i]), "2000");
  };
  std::array<std::unique_ptr<cluster_node>, 3> nodes;
  std::vector<std::string> outputs;       // of every process killed
  std::vector<std::int64_t> incarnations; // the ones killed
  shared_state s;
  for (std::size_t i = 0; i < 3; ++i) {
    nodes[i] = start_node(i);
    s.pids[i] = nodes[i]->process.pid();
  }
  for (const auto& name : names)
    REQUIRE(parley::test::becomes_live(nodes[0]->api, name));

  auto seed = std::random_device{}();
  INFO("seed " << seed);
  std::thread killer{[&s, seed] {
    kill_at_random(s, seed);
  }};
  struct join_on_exit {
    shared_state& s;
    std::thread& t;
    ~join_on_exit() {
      {
        std::lock_guard<std::mutex> lock{s.mutex};
        s.stop = true;
      }
      s.changed.notify_all();
      t.join();
    }
  } joiner{s, killer};

  std::vector<driven> negotiations;
  std::map<int, int> answers; // by status: what the driver was told
  std::size_t turn = 0;
  std::size_t next = 0;
  int opened = 0;
  bool orphans_taken = false;
  auto deadline = std::chrono::steady_clock::now() + 150s;
  while (std::chrono::steady_clock::now() < deadline) {
    // Starts every node killed again, as a new incarnation.
    int killed = 0;
    std::array<bool, 3> down{};
    {
      std::lock_guard<std::mutex> lock{s.mutex};
      killed = s.killed;
      down = s.down;
    }
    for (std::size_t i = 0; i < 3; ++i) {
      if (!down[i])
        continue;
      REQUIRE(nodes[i]->process.wait_exit(10s) == 128 + SIGKILL);
      incarnations.push_back(
          std::stoll(parley::test::incarnation_of(nodes[i]->process.output())));
      outputs.push_back(nodes[i]->process.output());
      nodes[i] = start_node(i);
      std::lock_guard<std::mutex> lock{s.mutex};
      s.pids[i] = nodes[i]->process.pid();
      s.down[i] = false;
      s.changed.notify_all();
    }
    auto open = std::count_if(negotiations.begin(), negotiations.end(),
                              [](const driven& x) { return !x.ended; });
    if (killed == kills && open == 0) {
      if (orphans_taken)
        break;
      // Openings whose answer was lost with their node are in the store:
      // they are driven to their end too.
      orphans_taken = true;
      for (const auto& r : all_negotiations(nodes[0]->api)) {
        auto id = r["id"].get<std::string>();
        if (std::none_of(negotiations.begin(), negotiations.end(),
                         [&](const driven& x) { return x.id == id; }))
          negotiations.push_back({id,
                                  r["initiator"],
                                  r["responder"],
                                  r["rounds"].size(),
                                  ended_well(r),
                                  {}});
      }
      continue;
    }
    auto& via = *nodes[turn++ % 3];
    if (killed < kills && static_cast<std::size_t>(open) < pool) {
      // A new negotiation: its agents registered through one node (409
      // when an earlier try was committed), opened through the next.
      auto n = std::to_string(++opened);
      driven x{"", "did:key:buyer-" + n, "did:key:seller-" + n, 1, false, {}};
      bool registered = true;
      for (const auto& agent : {x.buyer, x.seller}) {
        auto a = via.api.try_post("/api/v1/agents", parley::test::external(agent));
        registered = registered && (a.status == 201 || a.status == 409);
      }
      auto& other = *nodes[turn % 3];
      auto a = registered
                   ? other.api.try_post("/api/v1/negotiations",
                                        {{"initiator", x.buyer},
                                         {"responder", x.seller},
                                         {"max_rounds", max_rounds},
                                         {"proposal", parley::test::proposal(10000)}})
                   : api_client::answer{};
      if (a.status == 201) {
        x.id = a.body["id"].get<std::string>();
        negotiations.push_back(std::move(x));
      }
      continue;
    }
    // The next move of the next negotiation that has not ended.
    if (open == 0)
      continue;
    while (negotiations[next % negotiations.size()].ended)
      ++next;
    auto& x = negotiations[next++ % negotiations.size()];
    auto round = x.rounds + 1;
    auto move = move_of(x, round);
    {
      std::lock_guard<std::mutex> lock{s.mutex};
      ++s.attempts;
    }
    s.changed.notify_all();
    auto a = via.api.try_post(parley::test::negotiation_messages(x.id), move);
    ++answers[a.status];
    INFO(x.id << " round " << round << ": " << a.status << " " << a.body.dump());
    if (a.status == 200) {
      // Applied now, or before (E011: an answer lost with its node).
      auto record =
          a.body.contains("error_code") ? a.body["details"]["result"] : a.body;
      REQUIRE((!a.body.contains("error_code") || a.body["error_code"] == "E011"));
      REQUIRE(record["rounds"].size() == round);
      x.acknowledged.push_back(move["message_id"]);
      x.rounds = round;
      x.ended = record["status"] != "countering";
    } else if (a.status == 409 && a.body["error_code"] == "E016") {
      x.ended = true; // expired meanwhile: checked below
    } else {
      // No answer (its node was killed), or E030 while the owner is taken
      // over: sent again later, with the same message id.
      REQUIRE((a.status == 0 || (a.status == 503 && a.body["error_code"] == "E030")));
    }
  }
  REQUIRE(s.killed == kills);
  std::size_t acknowledged = 0;
  for (const auto& x : negotiations)
    acknowledged += x.acknowledged.size();
  WARN(kills << " kills (seed " << seed << "): " << negotiations.size()
             << " negotiations, " << acknowledged
             << " moves acknowledged; moves answered by HTTP status (0: none): "
             << json(answers).dump());

  // What the store holds, read through another node than the one listing
  // the orphans.
  auto stored = all_negotiations(nodes[1]->api);
  CHECK(stored.size() == negotiations.size());
  for (const auto& r : stored) {
    INFO(r.dump());
    CHECK(ended_well(r));
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < r["rounds"].size(); ++i) {
      CHECK(r["rounds"][i]["round"] == i + 1);
      ids.push_back(r["rounds"][i].value("message_id", ""));
    }
    auto x = std::find_if(negotiations.begin(), negotiations.end(),
                          [&](const driven& d) { return d.id == r["id"]; });
    REQUIRE(x != negotiations.end());
    for (const auto& acked : x->acknowledged)
      CHECK(std::count(ids.begin(), ids.end(), acked) == 1);
  }
  // Every killed incarnation was taken over by exactly one survivor.
  for (std::size_t i = 0; i < 3; ++i)
    outputs.push_back(nodes[i]->process.output());
  auto taken = take_overs(outputs);
  for (auto incarnation : incarnations) {
    INFO("incarnation " << incarnation);
    CHECK(taken[incarnation] == 1);
  }
  store::store_url parsed;
  REQUIRE(store::parse_store_url(url, parsed).empty());
  for (const auto& m : store::open_backend(parsed)->members("prod"))
    if (m.status == store::member_status::dead)
      CHECK(m.taken_over_by != 0);
  for (auto& node : nodes) {
    node->process.signal(SIGTERM);
    auto code = node->process.wait_exit(10s);
    INFO((code ? node->process.output() : node->process.describe_stuck()));
    CHECK(code == 0);
    // Every actor ended with the stop (serve exits without the ones that do
    // not, and says so).
    CHECK(node->process.output().find("actors still running") == std::string::npos);
  }
}

} // namespace integration_cluster_failover_test
