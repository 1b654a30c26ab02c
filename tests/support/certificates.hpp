#pragma once

// A throwaway CA and certificates for mutual TLS between Parley processes,
// made with scripts/make-certs.sh at test time (no key is ever committed).

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/process.hpp"

namespace parley::test {

/// A CA ("cluster") with a certificate for each of `names`, and a second CA
/// ("rogue") with one for each of `rogue_names`, in a fresh directory
/// removed at the end.
struct certificates {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("parley_tls_" + std::to_string(std::random_device{}()));

  explicit certificates(const std::vector<std::string>& names = {"node", "client"},
                        const std::vector<std::string>& rogue_names = {"intruder"}) {
    make("cluster", names);
    make("rogue", rogue_names);
  }

  ~certificates() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }

  certificates(const certificates&) = delete;
  certificates& operator=(const certificates&) = delete;

  std::string file(const std::string& name) const { return (dir / name).string(); }

  /// The --tls-* flags of certificate `name` under CA `ca`.
  std::vector<std::string> flags(const std::string& ca, const std::string& name) const {
    return {"--tls-ca",   file(ca + "/ca.pem"),
            "--tls-cert", file(ca + "/" + name + ".pem"),
            "--tls-key",  file(ca + "/" + name + ".key")};
  }

private:
  void make(const std::string& ca, const std::vector<std::string>& names) {
    if (names.empty())
      return;
    std::string command = std::string{PARLEY_SOURCE_DIR} + "/scripts/make-certs.sh " +
                          (dir / ca).string();
    for (const auto& name : names)
      command += " " + name;
    REQUIRE(run_command(command).exit_code == 0);
  }
};

} // namespace parley::test
