#pragma once

// Helpers of the channel API's integration tests: external channel members
// registered over HTTP, their answers, and bounded waits for what the
// runtime does on its own (a channel's questions reach the inbox, its row
// reaches the store).

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include "support/api_client.hpp"

namespace parley::test {

/// An agent with an external brain offering the capability `tag`: an
/// external channel member.
inline nlohmann::json channel_agent(const std::string& id, const std::string& tag) {
  return {{"id", id},
          {"profile", {{"display_name", id + " ltd"}, {"capabilities", {{tag, 0.9}}}}},
          {"brain", {{"kind", "external"}}}};
}

/// `agent` takes part with a contribution
/// (docs/protocols/channels.md, "Collecting offers").
inline nlohmann::json offer_message(const std::string& agent,
                                    const std::string& message_id) {
  return {{"type", "offer_response"},
          {"agent_id", agent},
          {"display_name", agent + " ltd"},
          {"response_type", "offer"},
          {"decision", "participate"},
          {"contribution", agent + " brings what it offers"},
          {"reasoning", "free that week"},
          {"message_id", message_id}};
}

/// `agent`'s verdict `kind` on the proposal
/// (docs/protocols/channels.md, "Collecting feedback").
inline nlohmann::json feedback_message(const std::string& agent,
                                       const std::string& message_id,
                                       const std::string& kind = "accept") {
  return {{"type", "proposal_feedback"},
          {"agent_id", agent},
          {"feedback_type", kind},
          {"reasoning", "works for us"},
          {"message_id", message_id}};
}

/// Registers the external members "hall" (venue) and "voice" (speaker) and
/// submits, for user_alice, a demand that needs both; returns the receipt.
inline nlohmann::json submit_meetup(api_client& api) {
  REQUIRE(api.post("/api/v1/agents", channel_agent("hall", "venue")).status == 201);
  REQUIRE(api.post("/api/v1/agents", channel_agent("voice", "speaker")).status == 201);
  auto receipt = api.post("/api/v1/demand/submit",
                          {{"raw_input", "  An AI meetup needs a venue and a speaker "},
                           {"user_id", "user_alice"}});
  INFO(receipt.body.dump());
  REQUIRE(receipt.status == 200);
  return receipt.body;
}

/// Asks `get` again (every 20 ms, at most 20 s) until `done` holds for its
/// answer; returns the last answer.
inline api_client::answer
poll_until(const std::function<api_client::answer()>& get,
           const std::function<bool(const api_client::answer&)>& done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  auto a = get();
  while (!done(a) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    a = get();
  }
  return a;
}

/// `agent`'s inbox once its `list` ("demand_offers" or "proposal_reviews")
/// holds a question of `channel_id`.
inline nlohmann::json await_question(api_client& api, const std::string& agent,
                                     const std::string& list,
                                     const std::string& channel_id) {
  auto a = poll_until([&] { return api.get("/api/v1/agents/" + agent + "/inbox"); },
                      [&](const api_client::answer& x) {
                        if (x.status != 200)
                          return false;
                        for (const auto& q : x.body[list])
                          if (q["channel_id"] == channel_id)
                            return true;
                        return false;
                      });
  INFO(a.body.dump());
  REQUIRE(a.status == 200);
  return a.body;
}

/// The channel's row once the store has it with `status`.
inline nlohmann::json await_channel(api_client& api, const std::string& channel_id,
                                    const std::string& status) {
  auto a = poll_until([&] { return api.get("/api/v1/channels/" + channel_id); },
                      [&](const api_client::answer& x) {
                        return x.status == 200 && x.body["status"] == status;
                      });
  INFO(a.body.dump());
  REQUIRE(a.status == 200);
  REQUIRE(a.body["status"] == status);
  return a.body;
}

} // namespace parley::test
