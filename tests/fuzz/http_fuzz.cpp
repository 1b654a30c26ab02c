// Fuzzes the HTTP API as a request reaches it: Beast's request parser (with
// the server's body limit), then the routes with their body readers over a
// fake runtime (gateway, store and coordinator actors that answer every
// request with a valid value, echoing the request's ids), and the event
// hub for a stream. Every request must be answered, within a bound, by a
// body that is valid UTF-8 JSON (a 405 with its Allow), never by the
// routes' own 500 E037 or a crash.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/event_based_actor.hpp"

#include "messages/agent_messages.hpp"
#include "messages/agent_profile.hpp"
#include "messages/api.hpp"
#include "messages/commands.hpp"
#include "messages/coordinator_messages.hpp"
#include "messages/error_code.hpp"
#include "messages/store.hpp"
#include "messages/type_ids.hpp"
#include "service/routes.hpp"
#include "service/sse_hub.hpp"

namespace {

namespace bhttp = boost::beast::http;
namespace msg = parley::messages;
using parley::service::response;

/// What `parley serve` takes by default (serve.max_body_bytes).
constexpr std::size_t max_body_bytes = 65536;

/// How long a request may take to be answered; the routes' own timeout is
/// shorter, so only a request never answered at all hits it.
constexpr auto answer_bound = std::chrono::seconds(5);

msg::negotiation_record record_of(const std::string& id, const std::string& from) {
  msg::negotiation_record x;
  x.id = id;
  x.initiator = from;
  x.responder = "fuzz-responder";
  x.current_proposal.amount = 1000;
  x.current_proposal.currency = "GBP";
  return x;
}

/// The gateway: every request answered with what it names.
caf::behavior fake_gateway() {
  return {
      [](caf::put_atom, msg::agent_spec& x) { return x; },
      [](caf::get_atom, msg::agent_atom,
         std::string& id) -> caf::result<msg::agent_spec> {
        // An id starting with "missing" is refused, as the gateway does, with
        // details (the error path of the answer).
        if (id.rfind("missing", 0) == 0)
          return msg::make_error(msg::error_code::agent_not_found, "no agent " + id,
                                 nlohmann::json{{"agent_id", id}}.dump());
        msg::agent_spec x;
        x.id = id;
        return x;
      },
      [](msg::list_atom, msg::agent_atom) {
        msg::agent_spec x;
        x.id = "fuzz-agent";
        return std::vector<msg::agent_spec>{x};
      },
      [](caf::delete_atom, msg::agent_atom, std::string& id) {
        msg::agent_spec x;
        x.id = id;
        return x;
      },
      [](caf::put_atom, msg::room_request& x) {
        return msg::room_view{x.id, x.members, {}, {}};
      },
      [](caf::get_atom, msg::room_atom, std::string& id) {
        return msg::room_view{id, {"a", "b"}, record_of("n", "a"), {}};
      },
      [](caf::put_atom, std::string& room, msg::start_negotiation& x) {
        auto r = record_of("0190a6e2-5b7c-7d3e-8f00-000000000000", x.initiator);
        r.room_id = room;
        r.responder = x.responder;
        r.current_proposal = x.proposal;
        return r;
      },
      [](msg::agent_counter& x) {
        auto r = record_of(x.negotiation_id, x.from_agent);
        r.current_proposal = x.proposal;
        return r;
      },
      [](msg::agent_accept& x) { return record_of(x.negotiation_id, x.from_agent); },
      [](msg::agent_reject& x) { return record_of(x.negotiation_id, x.from_agent); },
      [](caf::get_atom, std::string& id) { return record_of(id, "fuzz-initiator"); },
      [](msg::list_atom, msg::turns_atom, std::string& agent) {
        return std::vector<msg::negotiation_record>{record_of("n", agent)};
      },
  };
}

/// The store: an empty page, empty statistics, nothing expired, ready.
caf::behavior fake_store() {
  return {
      [](msg::query_atom, msg::store_query&) { return msg::store_page{}; },
      [](msg::stats_atom) { return msg::store_stats{}; },
      [](msg::expire_atom) { return std::int64_t{0}; },
      [](msg::ping_atom) { return std::string{}; },
      [](caf::get_atom, msg::channel_atom, std::string& id) {
        msg::channel_record x;
        x.channel_id = id;
        return x;
      },
  };
}

/// The coordinator: a demand taken, and one demand's view.
caf::behavior fake_coordinator() {
  return {
      [](msg::submit_demand& x) {
        msg::demand_receipt r;
        r.demand_id = "d-" + x.user_id;
        return r;
      },
      [](caf::get_atom, std::string& id) {
        msg::demand_view x;
        x.demand_id = id;
        return x;
      },
  };
}

/// An actor whose behavior `Make` gives. A class rather than a function
/// actor: CAF 0.17 binds a reference to the null argument tuple of a
/// function actor spawned without arguments, which UBSan reports.
template <caf::behavior (*Make)()> class fake : public caf::event_based_actor {
public:
  using caf::event_based_actor::event_based_actor;
  caf::behavior make_behavior() override { return Make(); }
};

/// An event stream that takes what the hub replays, then closes (the hub
/// lets it go at its next sweep).
struct closing_stream : parley::service::event_stream {
  bool push(parley::service::shared_bytes) override { return false; }
  bool open() const noexcept override { return false; }
};

/// The actor system, its fake runtime and the routes, made once and kept
/// for the whole run (never destroyed: the fuzzer ends with exit()).
struct fake_runtime {
  fake_runtime() : sys(config()) {
    parley::service::routes::peers to;
    to.gateway =
        caf::actor_cast<parley::actors::gateway_actor>(sys.spawn<fake<fake_gateway>>());
    to.store =
        caf::actor_cast<parley::actors::store_actor>(sys.spawn<fake<fake_store>>());
    to.coordinator = caf::actor_cast<parley::actors::coordinator_actor>(
        sys.spawn<fake<fake_coordinator>>());
    to.events = std::make_shared<parley::service::sse_hub>(
        parley::service::sse_hub::options{100, 100});
    parley::service::routes::options opts;
    opts.timeout = std::chrono::milliseconds(2000);
    routes.emplace(sys, std::move(to), opts, std::make_shared<std::atomic<bool>>(true));
  }

  static caf::actor_system_config& config() {
    static caf::actor_system_config cfg;
    msg::register_types(cfg);
    cfg.set("scheduler.max-threads", 2);
    return cfg;
  }

  caf::actor_system sys;
  std::optional<parley::service::routes> routes;
};

/// One answer, waited for by the fuzzer's thread.
struct answer_box {
  std::mutex mtx;
  std::condition_variable cv;
  std::optional<response> answer;
};

[[noreturn]] void fail(const char* why, const response& r) {
  std::fprintf(stderr, "http_fuzz: %s: status %u, body %s\n", why, r.status,
               r.body.c_str());
  std::abort();
}

/// Checks one answer.
void check(const response& r) {
  if (r.stream) {
    if (r.status != 200)
      fail("a stream that is not a 200", r);
    r.stream(std::make_shared<closing_stream>());
    return;
  }
  if (r.content_type != "application/json")
    return; // a dashboard file
  auto body = nlohmann::json::parse(r.body, nullptr, false);
  if (body.is_discarded())
    fail("an answer that is not valid UTF-8 JSON", r);
  if (r.status >= 400 && (!body.is_object() || !body.contains("error_code")))
    fail("an error without a code", r);
  if (r.status == 500)
    fail("a route failed (E037)", r);
  if (r.status == 405 && r.allow.empty())
    fail("a 405 without Allow", r);
}

/// Feeds `bytes` to a request parser as the server's connection would;
/// the request once it is whole, nothing otherwise.
std::optional<bhttp::request<bhttp::string_body>> parse(const std::string& bytes) {
  bhttp::request_parser<bhttp::string_body> parser;
  parser.body_limit(max_body_bytes);
  parser.eager(true);
  boost::asio::const_buffer rest{bytes.data(), bytes.size()};
  while (!parser.is_done()) {
    boost::beast::error_code ec;
    auto used = parser.put(rest, ec);
    rest += used;
    // Nothing more to take: the server would wait for more bytes.
    if (used == 0)
      return std::nullopt;
    if (ec && ec != bhttp::error::need_more)
      return std::nullopt; // a 400 or 413 of the server's own
  }
  return parser.release();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static auto* runtime = new fake_runtime;
  auto req = parse(std::string(reinterpret_cast<const char*>(data), size));
  if (!req)
    return 0;
  parley::service::request r;
  r.method = std::string{req->method_string()};
  r.target = std::string{req->target()};
  r.body = std::move(req->body());
  r.last_event_id = std::string{(*req)["Last-Event-ID"]};
  auto box = std::make_shared<answer_box>();
  (*runtime->routes)(std::move(r), [box](response x) {
    std::lock_guard<std::mutex> guard{box->mtx};
    if (box->answer)
      fail("a second answer", x);
    box->answer = std::move(x);
    box->cv.notify_all();
  });
  std::unique_lock<std::mutex> guard{box->mtx};
  if (!box->cv.wait_for(guard, answer_bound,
                        [&box] { return box->answer.has_value(); }))
    fail("no answer within 5 s", response{});
  check(*box->answer);
  return 0;
}
