#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/process.hpp"
#include "support/temp_store.hpp"

namespace parley::test {

/// What docs/openapi.json says of the API: each response is checked against
/// it (the route, method and status are documented; a JSON body has the
/// fields its schema requires), and which documented statuses were seen.
class openapi_contract {
public:
  openapi_contract();

  /// Checks one exchange (CHECKs, so a test reports every mismatch).
  void check(const std::string& method, const std::string& path, int status,
             const std::string& body, const std::string& content_type);

  /// The documented operation statuses ("POST /api/v1/agents 409") not seen.
  std::vector<std::string> unseen() const;

private:
  void check_schema(const nlohmann::json& schema, const nlohmann::json& value,
                    const std::string& where) const;
  const nlohmann::json& resolve(const nlohmann::json& schema) const;
  bool matches(const nlohmann::json& schema, const nlohmann::json& value) const;

  nlohmann::json doc_;
  std::set<std::string> seen_;
};

/// A `parley serve` (the binary the tests are built with) on a free loopback
/// port, with `extra` arguments of `serve`, `environment` (NAME=VALUE)
/// entries and `globals` (`--config FILE`) before the command.
struct serve_process {
  explicit serve_process(const std::vector<std::string>& extra = {},
                         const std::vector<std::string>& environment = {},
                         const std::vector<std::string>& globals = {});

  /// A fresh SQLite store of its own (tests run in parallel), which serve
  /// creates (`--create-store`).
  temp_store store;
  background_process process;
  int port = 0;
};

/// Waits (bounded) until the `parley serve` of `process` has recovered its
/// store and reports ready; returns the port it listens on.
int wait_until_serving(const background_process& process);

/// An HTTP client on one keep-alive connection to a serve_process, every
/// answer checked against the contract.
class api_client {
public:
  api_client(int port, openapi_contract& contract, std::string token = {},
             const std::string& host = "127.0.0.1");

  struct answer {
    int status = 0;
    /// The body parsed (discarded when it is not JSON), and as sent.
    nlohmann::json body;
    std::string text;
    std::string content_type;
    std::string retry_after;
  };

  answer get(const std::string& path);
  answer post(const std::string& path, const nlohmann::json& body);
  answer post_raw(const std::string& path, const std::string& body);
  answer del(const std::string& path);
  /// As `post`, for a server that may be gone: no answer (the connection
  /// refused, reset or timed out) is status 0 instead of a failure.
  answer try_post(const std::string& path, const nlohmann::json& body);

private:
  answer finish(const std::string& method, const std::string& path,
                const httplib::Result& res);

  std::unique_ptr<httplib::Client> http_;
  openapi_contract& contract_;
  httplib::Headers headers_;
};

/// The body of `POST /api/v1/agents` for an agent with the external brain.
nlohmann::json external(const std::string& id);

/// A proposal of `amount` pence for a logo design.
nlohmann::json proposal(std::int64_t amount);

/// A move body: `from` counters with proposal(`amount`), "meet me halfway".
nlohmann::json counter(const std::string& message_id, const std::string& from,
                       std::int64_t amount);

/// A move body of `action` (accept or reject) without a proposal.
nlohmann::json simple_move(const std::string& message_id, const std::string& from,
                           const std::string& action);

/// Registers external agents `a` and `b` on `api` and opens a negotiation
/// between them there (a proposal of 10000 from `a`); its id.
std::string open_negotiation(api_client& api, const std::string& a,
                             const std::string& b);

/// The path of negotiation `id`'s moves.
std::string negotiation_messages(const std::string& id);

/// Checks that `a` is the coded error `code` with HTTP status `status`.
inline void check_error(const api_client::answer& a, int status,
                        const std::string& code) {
  INFO(a.body.dump());
  CHECK(a.status == status);
  // Read so that a body without the field fails the check, not the binary.
  CHECK((a.body.is_object() ? a.body.value("error_code", std::string{})
                            : std::string{}) == code);
}

} // namespace parley::test
