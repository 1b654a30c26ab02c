// `parley serve` when its store cannot write (issue 35, item 4): a full disk,
// a store file deleted while serving, a store that is read-only on restart,
// and a store that is not there at start. `/readyz` turns 503, moves are
// refused fast with E028 (never acknowledged uncommitted), reads show only
// what is committed, nothing acknowledged is lost once the store can write
// again, and a store that vanished is never silently replaced by an empty
// one. The disk and read-only cases mount a small tmpfs (and make files
// immutable, since root ignores file modes), so they need root; without it
// they are skipped with a warning.

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"
#include "support/channel_api.hpp"
#include "support/process.hpp"
#include "support/temp_store.hpp"

namespace integration_store_outage_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::api_client;
using parley::test::background_process;
using parley::test::external;
using parley::test::openapi_contract;
using parley::test::poll_until;
using parley::test::proposal;
using parley::test::run_command;

namespace {

/// A directory of its own under the temporary directory with a small tmpfs
/// mounted on it, when running as root; unmounted and removed when it goes
/// away, whatever happened.
class tmpfs_dir {
public:
  tmpfs_dir() {
    auto pattern =
        (std::filesystem::temp_directory_path() / "parley_mnt_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      why_ = "cannot make a temporary directory";
      return;
    }
    dir_ = pattern;
    if (::geteuid() != 0) {
      why_ = "not running as root: cannot mount a file system for the store";
      return;
    }
    auto command = "mount -t tmpfs -o size=16m tmpfs " + dir_;
    auto r = run_command(command + " 2>&1", 20);
    if (r.exit_code != 0) {
      why_ = "cannot mount (" + command + "): " + r.output;
      return;
    }
    mounted_ = true;
  }

  ~tmpfs_dir() {
    if (mounted_)
      run_command("umount -l " + dir_ + " 2>&1", 20);
    // Empty once unmounted: never removes more than the directory itself.
    std::error_code ignored;
    if (!dir_.empty())
      std::filesystem::remove(dir_, ignored);
  }

  tmpfs_dir(const tmpfs_dir&) = delete;
  tmpfs_dir& operator=(const tmpfs_dir&) = delete;

  bool mounted() const noexcept { return mounted_; }
  const std::string& why_not() const noexcept { return why_; }
  const std::string& dir() const noexcept { return dir_; }

private:
  std::string dir_;
  std::string why_;
  bool mounted_ = false;
};

json counter(const std::string& message_id, const std::string& from,
             std::int64_t amount) {
  return {{"message_id", message_id},
          {"from", from},
          {"action", "counter"},
          {"proposal", proposal(amount)}};
}

std::vector<std::string> serve_argv(const std::string& store, bool create) {
  std::vector<std::string> argv{PARLEY_BINARY, "serve",   "--port",
                                "0",           "--store", store};
  if (create)
    argv.emplace_back("--create-store");
  return argv;
}

/// The message ids of `record`'s rounds.
std::set<std::string> message_ids(const json& record) {
  std::set<std::string> ids;
  for (const auto& round : record["rounds"])
    ids.insert(round.value("message_id", ""));
  return ids;
}

/// Registers two external agents and opens a negotiation between them (20
/// rounds at most); returns its id.
std::string open_negotiation(api_client& api) {
  REQUIRE(api.post("/api/v1/agents", external("ext-a")).status == 201);
  REQUIRE(api.post("/api/v1/agents", external("ext-b")).status == 201);
  auto opened = api.post("/api/v1/negotiations", {{"initiator", "ext-a"},
                                                  {"responder", "ext-b"},
                                                  {"proposal", proposal(100000)},
                                                  {"max_rounds", 20}});
  INFO(opened.body.dump());
  REQUIRE(opened.status == 201);
  return opened.body["id"].get<std::string>();
}

void stop(background_process& serve) {
  serve.signal(SIGTERM);
  CHECK(serve.wait_exit(10s));
}

/// Makes `files` immutable (`chattr +i`: root ignores file modes) until it
/// goes away, whatever happened.
class immutable {
public:
  explicit immutable(std::string files) : files_(std::move(files)) {
    auto r = run_command("chattr +i " + files_ + " 2>&1", 20);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
  }
  ~immutable() { run_command("chattr -i " + files_ + " 2>&1", 20); }
  immutable(const immutable&) = delete;
  immutable& operator=(const immutable&) = delete;

private:
  std::string files_;
};

/// The port of the serve that printed `output`.
int port_of(const std::string& output) {
  auto at = output.find("listening on ") + 13;
  return std::stoi(output.substr(output.find(':', at) + 1));
}

} // namespace

TEST_CASE(
    "with the disk full, moves are refused fast, reads show only what is committed, "
    "and nothing acknowledged is lost",
    "[integration]") {
  tmpfs_dir disk;
  if (!disk.mounted()) {
    WARN("skipped, the disk-full case needs a tmpfs: " << disk.why_not());
    return;
  }
  auto store = disk.dir() + "/outage.db";
  auto filler = disk.dir() + "/filler";
  openapi_contract contract;
  std::set<std::string> acknowledged;
  std::string id;
  {
    background_process serve{serve_argv(store, true)};
    api_client api{parley::test::wait_until_serving(serve), contract};
    id = open_negotiation(api);
    const auto messages = "/api/v1/negotiations/" + id + "/messages";
    // Whose move it is: the responder first. A move refused with E028 was
    // applied all the same (not committed yet): the turn passes on. A replay
    // sends the same body again.
    int turn = 0;
    std::map<std::string, json> bodies;
    auto next_move = [&](const std::string& message_id) {
      auto from = turn++ % 2 == 0 ? "ext-b" : "ext-a";
      return bodies[message_id] = counter(message_id, from, 90000 - 100 * turn);
    };
    for (const auto* m : {"before-1", "before-2"}) {
      REQUIRE(api.post(messages, next_move(m)).status == 200);
      acknowledged.insert(m);
    }
    CHECK(api.get("/readyz").status == 200);

    // The disk fills up.
    run_command("dd if=/dev/zero of=" + filler + " bs=64k 2>/dev/null", 30);
    auto ready = api.get("/readyz");
    INFO(ready.text);
    CHECK(ready.status == 503);
    CHECK(ready.body.value("error_code", "") == "E028");
    CHECK(ready.retry_after == "1");
    // Moves until three are refused: each refusal comes fast (the request
    // timeout is 5 s) with E028 and Retry-After; a move that was answered
    // 200 was committed (the log had room for it).
    std::vector<std::string> refused;
    for (int i = 0; i < 10 && refused.size() < 3; ++i) {
      auto m = "during-" + std::to_string(i);
      auto sent = std::chrono::steady_clock::now();
      auto a = api.post(messages, next_move(m));
      auto took = std::chrono::steady_clock::now() - sent;
      INFO(m << ": " << a.status << " " << a.text);
      if (a.status == 200) {
        acknowledged.insert(m);
        continue;
      }
      CHECK(a.status == 503);
      CHECK(a.body.value("error_code", "") == "E028");
      CHECK(a.retry_after == "1");
      CHECK(took < 2s);
      refused.push_back(m);
    }
    REQUIRE(!refused.empty());
    // No read shows a round that is not committed, and a replay of a refused
    // move is refused too (no E011 for what a crash would erase).
    auto now = api.get("/api/v1/negotiations/" + id);
    INFO(now.text);
    REQUIRE(now.status == 200);
    for (const auto& m : refused)
      CHECK(message_ids(now.body).count(m) == 0);
    for (const auto& m : acknowledged)
      CHECK(message_ids(now.body).count(m) == 1);
    auto replay = api.post(messages, bodies[refused.front()]);
    INFO(replay.text);
    CHECK(replay.status == 503);
    CHECK(replay.body.value("error_code", "") == "E028");

    // Space returns: the store writes the kept batch again and is ready.
    std::filesystem::remove(filler);
    auto back = poll_until([&] { return api.get("/readyz"); },
                           [](const api_client::answer& a) { return a.status == 200; });
    INFO(back.text);
    REQUIRE(back.status == 200);
    // What was refused is committed now; its replay says so (E011, 200).
    for (const auto& m : refused) {
      auto again = api.post(messages, bodies[m]);
      INFO(again.text);
      CHECK(again.status == 200);
      CHECK(again.body.value("error_code", "") == "E011");
      acknowledged.insert(m);
    }
    for (const auto* m : {"after-1", "after-2"}) {
      auto a = api.post(messages, next_move(m));
      INFO(a.text);
      CHECK(a.status == 200);
      acknowledged.insert(m);
    }
    stop(serve);
  }
  // Every move answered 2xx is in the store: read it back after a restart.
  background_process serve{serve_argv(store, false)};
  api_client api{parley::test::wait_until_serving(serve), contract};
  auto record = api.get("/api/v1/negotiations/" + id);
  INFO(record.text);
  REQUIRE(record.status == 200);
  auto stored = message_ids(record.body);
  for (const auto& m : acknowledged)
    CHECK(stored.count(m) == 1);
  stop(serve);
}

TEST_CASE("a store file deleted while serving: not ready, moves refused, and a restart "
          "does not replace it with an empty one",
          "[integration]") {
  parley::test::temp_store store;
  openapi_contract contract;
  {
    background_process serve{serve_argv(store.path(), true)};
    api_client api{parley::test::wait_until_serving(serve), contract};
    auto id = open_negotiation(api);
    const auto messages = "/api/v1/negotiations/" + id + "/messages";
    REQUIRE(api.post(messages, counter("m-1", "ext-b", 90000)).status == 200);
    CHECK(api.get("/readyz").status == 200);

    std::filesystem::remove(store.path());
    auto ready = api.get("/readyz");
    INFO(ready.text);
    CHECK(ready.status == 503);
    CHECK(ready.body.value("error_code", "") == "E028");
    CHECK(ready.body.value("message", "").find("deleted") != std::string::npos);
    // A move would be committed into the deleted file only: refused, fast.
    auto sent = std::chrono::steady_clock::now();
    auto move = api.post(messages, counter("m-2", "ext-a", 95000));
    INFO(move.text);
    CHECK(move.status == 503);
    CHECK(move.body.value("error_code", "") == "E028");
    CHECK(std::chrono::steady_clock::now() - sent < 2s);
    CHECK(api.post("/api/v1/agents", external("ext-c")).status == 503);
    // The refused move was written into the deleted file: no read shows it.
    auto read = api.get("/api/v1/negotiations/" + id);
    INFO(read.text);
    if (read.status == 200)
      CHECK(message_ids(read.body).count("m-2") == 0);
    else
      CHECK(read.body.value("error_code", "") == "E028");
    stop(serve);
  }
  // Without --create-store, serve refuses to start, naming the store and
  // how to make a new one; it creates nothing.
  std::error_code ignored;
  for (const char* suffix : {"-wal", "-shm"})
    std::filesystem::remove(store.path() + suffix, ignored);
  auto refused = parley::test::run_parley("serve --port 0 --store " + store.path(), 30);
  INFO(refused.output);
  CHECK(refused.exit_code == 1);
  CHECK(refused.output.find("E028") != std::string::npos);
  CHECK(refused.output.find(store.path()) != std::string::npos);
  CHECK(refused.output.find("--create-store") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(store.path()));
  // With it, serve starts over a new, empty store.
  background_process serve{serve_argv(store.path(), true)};
  api_client api{parley::test::wait_until_serving(serve), contract};
  CHECK(serve.output().find("recovered 0 agents") != std::string::npos);
  CHECK(api.get("/readyz").status == 200);
  stop(serve);
}

TEST_CASE("serve refuses a store that is not there, or a new one over a leftover log, "
          "and the store commands create none",
          "[integration]") {
  parley::test::temp_store store;
  auto missing = parley::test::run_parley("serve --port 0 --store " + store.path(), 30);
  INFO(missing.output);
  CHECK(missing.exit_code == 1);
  CHECK(missing.output.find("E028 the SQLite store file " + store.path() +
                            " does not exist") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(store.path()));
  // An empty file holds no store either.
  { std::ofstream touch{store.path()}; }
  auto empty = parley::test::run_parley("serve --port 0 --store " + store.path(), 30);
  INFO(empty.output);
  CHECK(empty.exit_code == 1);
  CHECK(empty.output.find("holds no Parley schema") != std::string::npos);
  // A log without its database: a new store there would play it.
  std::filesystem::rename(store.path(), store.path() + "-wal");
  auto leftover = parley::test::run_parley(
      "serve --port 0 --create-store --store " + store.path(), 30);
  INFO(leftover.output);
  CHECK(leftover.exit_code == 1);
  CHECK(leftover.output.find("left from a store that vanished") != std::string::npos);
  // So does `parley db migrate`; the other store commands create nothing.
  auto migrate_over_log =
      parley::test::run_parley("db migrate --store " + store.path());
  INFO(migrate_over_log.output);
  CHECK(migrate_over_log.exit_code == 1);
  CHECK(migrate_over_log.output.find("left from a store that vanished") !=
        std::string::npos);
  std::filesystem::remove(store.path() + "-wal");
  for (const auto* command : {"db verify", "db rollback", "db expire", "stats"}) {
    auto r =
        parley::test::run_parley(std::string{command} + " --store " + store.path());
    INFO(command << ": " << r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("does not exist") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(store.path()));
  }
  // `parley db migrate` makes a store serve opens without the flag.
  REQUIRE(parley::test::run_parley("db migrate --store " + store.path()).exit_code ==
          0);
  background_process serve{serve_argv(store.path(), false)};
  openapi_contract contract;
  api_client api{parley::test::wait_until_serving(serve), contract};
  CHECK(api.get("/readyz").status == 200);
  stop(serve);
}

TEST_CASE("a store whose files are made read-only is not ready, running or restarted",
          "[integration]") {
  // A tmpfs of its own: `chattr` works there whatever holds /tmp.
  tmpfs_dir disk;
  if (!disk.mounted()) {
    WARN("skipped, the read-only case needs a tmpfs and chattr: " << disk.why_not());
    return;
  }
  auto store = disk.dir() + "/read-only.db";
  auto files = store + " " + store + "-wal";
  openapi_contract contract;
  {
    background_process serve{serve_argv(store, true)};
    api_client api{parley::test::wait_until_serving(serve), contract};
    CHECK(api.get("/readyz").status == 200);
    {
      immutable frozen{files};
      auto ready = api.get("/readyz");
      INFO(ready.text);
      CHECK(ready.status == 503);
      CHECK(ready.body.value("error_code", "") == "E028");
      CHECK(ready.body.value("message", "").find("not writable") != std::string::npos);
    }
    CHECK(api.get("/readyz").status == 200);
    stop(serve);
  }
  // Read-only before it starts: it cannot open the store at all (E028, exit
  // 1), or it serves but is never ready.
  immutable frozen{store};
  background_process serve{serve_argv(store, false)};
  std::optional<int> exited;
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!exited && serve.output().find("parley serve: ready") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline)
    exited = serve.wait_exit(100ms);
  INFO(serve.output());
  if (exited) {
    CHECK(*exited == 1);
    CHECK(serve.output().find("E028") != std::string::npos);
    return;
  }
  REQUIRE(serve.output().find("parley serve: ready") != std::string::npos);
  api_client api{port_of(serve.output()), contract};
  auto ready = api.get("/readyz");
  INFO(ready.text);
  CHECK(ready.status == 503);
  CHECK(ready.body.value("error_code", "") == "E028");
  CHECK(api.post("/api/v1/agents", external("ext-a")).status == 503);
  stop(serve);
}

} // namespace integration_store_outage_test
