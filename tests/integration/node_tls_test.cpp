#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/certificates.hpp"
#include "support/process.hpp"

namespace integration_node_tls_test {

using namespace std::chrono_literals;
using Catch::Matchers::Contains;
using parley::test::background_process;
using parley::test::certificates;
using parley::test::run_command;
using parley::test::run_parley;
using parley::test::write_temp_file;

namespace {

const std::string parley_binary = PARLEY_BINARY;
const std::string source_dir = PARLEY_SOURCE_DIR;
const std::string scenario = source_dir + "/examples/scenarios/scripted_counter.json";

/// A `parley node` on a free loopback port printing its status every 100 ms,
/// with `extra` arguments and `config` (JSON) as its --config.
struct node_process {
  std::unique_ptr<background_process> process;
  std::string address;
  std::uint16_t port = 0;

  explicit node_process(const std::vector<std::string>& extra,
                        const std::string& config = "{}") {
    std::vector<std::string> argv{parley_binary, "--config",
                                  write_temp_file("node.json", config), "node"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process = std::make_unique<background_process>(argv);
    REQUIRE(process->wait_for_output("listening on ", 10s));
    auto out = process->output();
    auto begin = out.find("listening on ") + 13;
    address = out.substr(begin, out.find(' ', begin) - begin);
    port =
        static_cast<std::uint16_t>(std::stoi(address.substr(address.rfind(':') + 1)));
  }

  /// Waits until a status line shows `counts` (a part of it).
  bool shows(const std::string& counts) const {
    return process->wait_for_output(counts, 10s);
  }
};

const std::string fast_status = R"({"cluster": {"status_interval_ms": 100}})";

/// `parley run` of the scripted scenario on `node`, with `flags`.
parley::test::process_result run_on(const node_process& node,
                                    const std::vector<std::string>& flags) {
  std::string command = "run " + scenario + " --remote " + node.address;
  for (const auto& x : flags)
    command += " " + x;
  return run_parley(command, 30);
}

/// A raw TCP connection to the node, as any program could open one.
class raw_connection {
public:
  explicit raw_connection(std::uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
  }

  ~raw_connection() { ::close(fd_); }

  raw_connection(const raw_connection&) = delete;
  raw_connection& operator=(const raw_connection&) = delete;

  void send(const std::string& bytes) {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(bytes.size()));
  }

  /// Reads until the node closes the connection; false if it is still open
  /// after `limit`. What it sent is in received().
  bool closed_within(std::chrono::milliseconds limit) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return false;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
        continue;
      char buf[4096];
      auto n = ::recv(fd_, buf, sizeof(buf), 0);
      if (n <= 0)
        return true; // end-of-file or reset
      received_.append(buf, static_cast<std::size_t>(n));
    }
  }

  const std::string& received() const { return received_; }

private:
  int fd_ = -1;
  std::string received_;
};

} // namespace

TEST_CASE("a client with a certificate from the node's CA negotiates over TLS",
          "[integration]") {
  certificates certs;
  node_process node{certs.flags("cluster", "node"), fast_status};
  CHECK_THAT(node.process->output(), Contains("mutual TLS"));
  auto client = run_on(node, certs.flags("cluster", "client"));
  INFO(client.output);
  CHECK(client.exit_code == 0);
  CHECK_THAT(client.output, Contains(R"("type":"negotiation.agreed")"));
  CHECK_THAT(client.output, Contains(R"("accepted":1,"errors":0)"));
  CHECK(node.shows("open=0 accepted=1 closed=1 (refused_at_cap=0 failed_handshake=0"));
}

TEST_CASE("a TLS node refuses clients without a certificate from its CA",
          "[integration]") {
  certificates certs;
  node_process node{certs.flags("cluster", "node"), fast_status};
  SECTION("a plain CAF client") {
    auto client = run_on(node, {});
    CHECK(client.exit_code != 0);
    CHECK_THAT(client.output, Contains("cannot reach node " + node.address));
  }
  SECTION("a client of another CA") {
    auto client = run_on(node, certs.flags("rogue", "intruder"));
    CHECK(client.exit_code != 0);
    CHECK_THAT(client.output, Contains("cannot reach node " + node.address));
  }
  SECTION("a TLS client with no certificate, trusting the node") {
    run_command("sh -c 'openssl s_client -connect " + node.address + " -CAfile " +
                    certs.file("cluster/ca.pem") + " </dev/null'",
                10);
  }
  SECTION("a TLS client trusting the node, with a certificate of another CA") {
    run_command("sh -c 'openssl s_client -connect " + node.address + " -CAfile " +
                    certs.file("cluster/ca.pem") + " -cert " +
                    certs.file("rogue/intruder.pem") + " -key " +
                    certs.file("rogue/intruder.key") + " </dev/null'",
                10);
  }
  // Closed during the TLS handshake: not one byte reached CAF, so no room,
  // negotiation or message was placed. The node goes on serving.
  CHECK(node.shows("open=0 accepted=1 closed=1 (refused_at_cap=0 failed_handshake=1 "
                   "handshake_timeouts=0 idle_timeouts=0)"));
  auto good = run_on(node, certs.flags("cluster", "client"));
  CHECK(good.exit_code == 0);
  CHECK_THAT(good.output, Contains(R"("accepted":1,"errors":0)"));
}

TEST_CASE("a TLS node answers garbage bytes with no handshake and closes",
          "[integration]") {
  certificates certs;
  node_process node{certs.flags("cluster", "node"), fast_status};
  raw_connection garbage{node.port};
  garbage.send("GET / HTTP/1.0\r\n\r\n" + std::string(512, '\x17'));
  CHECK(garbage.closed_within(5s));
  // At most a TLS alert (7 bytes); never CAF's handshake with the node id.
  CHECK(garbage.received().size() <= 7);
  CHECK(node.shows("failed_handshake=1"));
}

TEST_CASE("a TLS node closes a connection that never starts its handshake",
          "[integration]") {
  certificates certs;
  node_process node{certs.flags("cluster", "node"),
                    R"({"cluster": {"status_interval_ms": 100,
                                    "handshake_timeout_ms": 1000}})"};
  raw_connection silent{node.port};
  CHECK(silent.closed_within(5s));
  CHECK(silent.received().empty());
  CHECK(node.shows("open=0 accepted=1 closed=1 (refused_at_cap=0 failed_handshake=0 "
                   "handshake_timeouts=1 idle_timeouts=0)"));
}

TEST_CASE("a node closes connections beyond its cap and silent ones at the "
          "handshake timeout",
          "[integration]") {
  node_process node{{}, R"({"cluster": {"status_interval_ms": 100,
                           "max_connections": 2, "handshake_timeout_ms": 2000}})"};
  auto start = std::chrono::steady_clock::now();
  raw_connection first{node.port};
  raw_connection second{node.port};
  REQUIRE(node.shows("open=2 accepted=2"));
  raw_connection third{node.port};
  CHECK(third.closed_within(1s));
  CHECK(node.shows("refused_at_cap=1"));
  CHECK(first.closed_within(5s));
  CHECK(second.closed_within(1s));
  CHECK(std::chrono::steady_clock::now() - start >= 2s);
  CHECK(node.shows("open=0 accepted=3 closed=3 (refused_at_cap=1 failed_handshake=0 "
                   "handshake_timeouts=2 idle_timeouts=0)"));
}

TEST_CASE("a node closes an authenticated peer that goes silent", "[integration]") {
  certificates certs;
  node_process node{certs.flags("cluster", "node"),
                    R"({"cluster": {"status_interval_ms": 100,
                                    "idle_timeout_ms": 1500}})"};
  // One byte of a CAF handshake, then silence: the TLS handshake passed, so
  // only the idle timeout ends it.
  auto peer =
      run_command("sh -c 'printf x | openssl s_client -ign_eof -quiet -connect " +
                      node.address + " -CAfile " + certs.file("cluster/ca.pem") +
                      " -cert " + certs.file("cluster/client.pem") + " -key " +
                      certs.file("cluster/client.key") + "'",
                  10);
  INFO(peer.output);
  CHECK(node.shows("open=0 accepted=1 closed=1 (refused_at_cap=0 failed_handshake=0 "
                   "handshake_timeouts=0 idle_timeouts=1)"));
}

TEST_CASE("bad TLS files are refused with a coded error before listening",
          "[integration]") {
  certificates certs;
  auto node = [&](const std::vector<std::string>& flags) {
    std::string command = "node";
    for (const auto& x : flags)
      command += " " + x;
    return run_parley(command, 10);
  };
  auto ca = certs.file("cluster/ca.pem");
  auto cert = certs.file("cluster/node.pem");
  auto key = certs.file("cluster/node.key");
  SECTION("a missing key file") {
    auto r = node({"--tls-ca", ca, "--tls-cert", cert, "--tls-key", key + ".missing"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("cluster.tls_key: E019 \"" + key +
                                  ".missing\": cannot read it: No such file"));
  }
  SECTION("a CA file that holds no certificate") {
    auto r = node({"--tls-ca", key, "--tls-cert", cert, "--tls-key", key});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("cluster.tls_ca: E019 \"" + key +
                                  "\": not a PEM file of CA certificates"));
  }
  SECTION("a CA without a certificate and key (which crashes CAF)") {
    auto r = node({"--tls-ca", ca});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("go together"));
  }
  SECTION("an encrypted key (OpenSSL would prompt for its passphrase)") {
    auto encrypted = certs.file("cluster/encrypted.key");
    REQUIRE(run_command("openssl pkey -in " + key +
                        " -aes256 -passout pass:secret -out " + encrypted)
                .exit_code == 0);
    auto r = node({"--tls-ca", ca, "--tls-cert", cert, "--tls-key", encrypted});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("cluster.tls_key: E019 \"" + encrypted +
                                  "\": not an unencrypted PEM private key"));
  }
  SECTION("a key of another certificate") {
    auto r = node({"--tls-ca", ca, "--tls-cert", cert, "--tls-key",
                   certs.file("cluster/client.key")});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("does not belong to the certificate"));
  }
  SECTION("a certificate of another CA") {
    auto r = node({"--tls-ca", ca, "--tls-cert", certs.file("rogue/intruder.pem"),
                   "--tls-key", certs.file("rogue/intruder.key")});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("cluster.tls_certificate: E019"));
    CHECK_THAT(r.output, Contains("not valid under the CA"));
  }
}

TEST_CASE("a node refuses a non-loopback address without TLS unless --insecure",
          "[integration]") {
  auto refused = run_parley("node --host 0.0.0.0", 10);
  CHECK(refused.exit_code == 2);
  CHECK_THAT(refused.output,
             Contains("E019 refusing to listen on 0.0.0.0 without TLS"));
  background_process insecure{
      {parley_binary, "node", "--host", "0.0.0.0", "--insecure"}};
  REQUIRE(insecure.wait_for_output("listening on 0.0.0.0:", 10s));
  CHECK_THAT(insecure.output(), Contains("WARNING: --insecure"));
  insecure.signal(SIGTERM);
  CHECK(insecure.wait_exit(5s) == 0);
}

} // namespace integration_node_tls_test
