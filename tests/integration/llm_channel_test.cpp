#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/exit_reason.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/bus/actor.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/world.hpp"
#include "support/fake_llm.hpp"

namespace integration_llm_channel_test {

using namespace std::chrono_literals;
using nlohmann::json;
using parley::test::fake_llm;
namespace msg = parley::messages;

namespace {

/// What the world's bus published, shared with the test thread.
struct channel_log {
  std::mutex mtx;
  std::condition_variable recorded;
  std::vector<msg::channel_event> events;
  std::vector<msg::problem_event> problems;

  /// Whether the demand's channel has ended.
  bool ended() const {
    for (const auto& x : events)
      if (x.kind == msg::channel_event_kind::finalized ||
          x.kind == msg::channel_event_kind::force_finalized ||
          x.kind == msg::channel_event_kind::failed)
        return true;
    return false;
  }
};

parley::actors::subscriber_actor::behavior_type
recorder(parley::actors::subscriber_actor::pointer, std::shared_ptr<channel_log> log) {
  auto keep = [log](auto f) {
    {
      std::lock_guard<std::mutex> g{log->mtx};
      f(*log);
    }
    log->recorded.notify_all();
  };
  return {
      [keep](const msg::channel_event& x) {
        keep([&](channel_log& l) { l.events.push_back(x); });
      },
      [keep](const msg::problem_event& x) {
        keep([&](channel_log& l) { l.problems.push_back(x); });
      },
      [](const msg::negotiation_event&) {},
      [](const msg::agent_event&) {},
      [](const msg::ballot_event&) {},
      [](const msg::auction_event&) {},
      [](const msg::barrier&) {},
  };
}

caf::actor_system_config& live_config(caf::actor_system_config& cfg) {
  parley::runtime::configure(cfg, parley::runtime::system_options{false, 2, false, {}});
  return cfg;
}

/// One JSON object that answers both prompt 3 (an offer) and prompt 5 (an
/// accept): each reader ignores the other's keys.
json good_answer() {
  return {{"response_type", "offer"},
          {"decision", "participate"},
          {"contribution", "提供 80 人的场地 (a venue for 80)"},
          {"reasoning", "场地空闲 — free that week"},
          {"confidence", 85},
          {"feedback_type", "accept"}};
}

json text_reply(const std::string& text) {
  return {{"content", {{{"type", "text"}, {"text", text}}}},
          {"stop_reason", "end_turn"}};
}

msg::channel_member_spec llm_member(const std::string& id) {
  msg::channel_member_spec x;
  x.profile.agent_id = id;
  x.profile.display_name = "Agent " + id;
  x.profile.capabilities = {"场地"};
  // The fake server tells the members apart by this token.
  x.profile.description = "desc-" + id;
  x.brain = msg::member_brain_kind::llm;
  return x;
}

} // namespace

TEST_CASE("a demand runs through LLM members that answer, babble and time out",
          "[integration][channel][llm]") {
  auto answers = text_reply(good_answer().dump());
  answers["match"] = "desc-ann";
  answers["repeat"] = true;
  auto garbage = text_reply("这不是 JSON, not JSON either");
  garbage["match"] = "desc-bob";
  garbage["repeat"] = true;
  auto slow = text_reply(good_answer().dump());
  slow["match"] = "desc-cat";
  slow["repeat"] = true;
  slow["delay_ms"] = 1500;
  fake_llm server{json{{"responses", {answers, garbage, slow}}}.dump()};

  parley::config::settings settings;
  settings.llm.base_url = server.base_url();
  settings.llm.model = "fake-model";
  settings.llm.call_timeout_ms = 300;
  settings.llm.max_retries = 0;
  settings.llm.breaker_threshold = 100;
  settings.channel.response_timeout_ms = 20000;
  settings.channel.feedback_timeout_ms = 20000;
  settings.channel.max_stuck_ms = 600000;

  caf::actor_system_config cfg;
  caf::actor_system sys{live_config(cfg)};
  auto log = std::make_shared<channel_log>();
  {
    parley::runtime::world w{sys, settings};
    auto rec = sys.spawn(recorder, log);
    w.events().subscribe(msg::topic_set::all(), rec);
    // Stops the world and the recorder however the test ends, so that the
    // actor system can shut down.
    struct stopper {
      parley::runtime::world& w;
      parley::actors::subscriber_actor rec;
      ~stopper() {
        w.stop();
        caf::anon_send_exit(rec, caf::exit_reason::user_shutdown);
      }
    } stop_all{w, rec};
    for (const auto* id : {"ann", "bob", "cat"})
      w.add_channel_member(llm_member(id));
    const std::string demand = "想在北京办一场AI聚会，需要场地 — a venue in Beijing";
    caf::scoped_actor self{sys};
    std::string refused;
    self->request(w.coordinator(), 5s, msg::submit_demand{demand, "u-1", "d-1"})
        .receive([](const msg::demand_receipt&) {},
                 [&](caf::error& e) { refused = sys.render(e); });
    REQUIRE(refused.empty());
    {
      std::unique_lock<std::mutex> g{log->mtx};
      REQUIRE(log->recorded.wait_for(g, 15s, [&] { return log->ended(); }));
      const auto& last = log->events.back();
      CHECK(last.kind == msg::channel_event_kind::finalized);
      REQUIRE(last.proposal);
      // The well-answering member's words survive, UTF-8 intact.
      bool found = false;
      for (const auto& a : last.proposal->assignments)
        if (a.agent_id == "ann")
          found = a.responsibility == "提供 80 人的场地 (a venue for 80)";
      CHECK(found);
      // bob's garbage and cat's timeouts fell back, each marked by a warning
      // naming the reason; ann never did.
      std::size_t bob = 0;
      std::size_t cat = 0;
      for (const auto& p : log->problems) {
        CHECK(p.agent_id != "ann");
        if (p.agent_id == "bob" && p.code == msg::error_code::invalid_request &&
            p.message.find("answered with the fallback: the answer holds no JSON "
                           "object") != std::string::npos)
          ++bob;
        if (p.agent_id == "cat" && p.code == msg::error_code::llm_timeout &&
            p.message.find("answered with the fallback") != std::string::npos)
          ++cat;
      }
      CHECK(bob == 2); // its offer and its feedback
      CHECK(cat == 2);
    }
    // The demand reached the model byte for byte.
    CHECK(server.get("/requests").find("想在北京办一场AI聚会，需要场地") !=
          std::string::npos);
  }
}

} // namespace integration_llm_channel_test
