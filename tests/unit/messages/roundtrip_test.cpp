#include "messages/json.hpp"
#include "messages/type_ids.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "caf/actor.hpp"
#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/binary_deserializer.hpp"
#include "caf/binary_serializer.hpp"
#include "caf/deep_to_string.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/exit_reason.hpp"
#include "caf/make_message.hpp"
#include "caf/message.hpp"
#include "caf/meta/annotation.hpp"
#include "caf/scheduler/test_coordinator.hpp"
#include "caf/send.hpp"
#include "caf/uniform_type_info_map.hpp"

#include "cluster/bridge/codec.hpp"
#include "messages/cluster_event.hpp"
#include "messages/fields.hpp"

namespace unit_messages_roundtrip_test {

using namespace parley::messages;
using nlohmann::json;

namespace {

// -- the wire: an actor system that runs no thread ------------------------------

caf::actor_system_config& wire_config(caf::actor_system_config& cfg) {
  register_types(cfg);
  cfg.set("scheduler.policy", caf::atom("testing"));
  return cfg;
}

/// An actor that does nothing; it takes a name because CAF 0.17 dereferences
/// a null pointer when spawning a function-based actor without arguments.
caf::behavior idle(caf::event_based_actor*, const std::string&) {
  return {[](std::int32_t) {
  }};
}

/// An actor system with three idle actors whose handles fill the samples'
/// actor fields; serializes values and messages in and out of bytes.
struct wire {
  caf::actor_system_config cfg;
  caf::actor_system sys{wire_config(cfg)};
  caf::scheduler::test_coordinator& sched{
      dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())};
  caf::actor alice = sys.spawn(idle, "alice");
  caf::actor bob = sys.spawn(idle, "bob");
  caf::actor bus = sys.spawn(idle, "bus");

  wire() { sched.run(); }

  ~wire() {
    for (const auto& x : {alice, bob, bus})
      caf::anon_send_exit(x, caf::exit_reason::kill);
    sched.run();
  }

  wire(const wire&) = delete;
  wire& operator=(const wire&) = delete;

  /// One of the idle actors under a typed interface (the wire does not care).
  template <class Handle> Handle as(const caf::actor& x) {
    return caf::actor_cast<Handle>(x);
  }

  template <class T> std::vector<char> to_bytes(T x) {
    std::vector<char> buf;
    caf::binary_serializer sink{sys, buf};
    auto err = sink(x);
    INFO(sys.render(err));
    REQUIRE_FALSE(err);
    return buf;
  }

  template <class T> T from_bytes(const std::vector<char>& buf) {
    T x;
    caf::binary_deserializer source{sys, buf};
    auto err = source(x);
    INFO(sys.render(err));
    REQUIRE_FALSE(err);
    CHECK(source.remaining() == 0);
    return x;
  }

  /// Serializes `x` alone and reads it back.
  template <class T> T round_trip(const T& x) { return from_bytes<T>(to_bytes(x)); }

  /// Puts `x` in a caf::message, serializes the message (which writes the
  /// type's registered name) and reads it back as a message.
  template <class T> caf::message message_round_trip(const T& x) {
    return from_bytes<caf::message>(to_bytes(caf::make_message(x)));
  }
};

// -- samples: non-default values for every type in the type-ID block ------------

template <class T> struct tag { using type = T; };

constexpr std::int64_t t0 = 1'700'000'000'000;

json_object terms() {
  return json_object{R"({"deadline":"friday","rush":true})"};
}

proposal logo(std::int64_t amount) {
  proposal x;
  x.amount = amount;
  x.currency = "EUR";
  x.escrow = true;
  x.description = "Logo design";
  x.terms = terms();
  return x;
}

incentive_split split() {
  return incentive_split{0.6, 0.2, 0.1, 0.1};
}

negotiation_settings settings() {
  negotiation_settings x;
  x.max_rounds = 9;
  x.round_timeout_ms = 15000;
  x.total_timeout_ms = 90000;
  x.incentive_split = split();
  return x;
}

negotiation_record accepted_record() {
  negotiation_record x;
  x.id = "neg_loyw3v28_a1b2_room-a";
  x.room_id = "room-a";
  x.intent_id = "4f1c2a9e-1b2c-4d3e-8f40-123456789abc";
  x.status = negotiation_status::accepted;
  x.initiator = "alice";
  x.responder = "bob";
  x.current_proposal = logo(87000);
  x.final_proposal = logo(87000);
  x.rounds = {
      negotiation_round{1, "alice", logo(100000), round_action::propose, "", t0,
                        "alice:1"},
      negotiation_round{2, "bob", logo(80000), round_action::counter, "too high",
                        t0 + 1000, "bob:1"},
      negotiation_round{3, "alice", logo(87000), round_action::counter, "halfway",
                        t0 + 2000, "alice:2"},
      negotiation_round{4, "bob", logo(87000), round_action::accept, "", t0 + 3000,
                        "bob:2"},
  };
  x.max_rounds = 9;
  x.round_timeout_ms = 15000;
  x.total_timeout_ms = 90000;
  x.convergence_score = 1.0;
  x.incentive_split = split();
  x.created_at = t0;
  x.updated_at = t0 + 3000;
  x.expires_at = t0 + 90000;
  x.status_reason = "agreed";
  deal_score score;
  score.utilities = {0.625, 0.5};
  score.advantages = {0.5, 0.4375};
  score.reservation = {0.25, 0.125};
  score.welfare = 1.125;
  score.nash_product = 0.140625;
  score.nash_point = utility_pair{0.5, 0.625};
  score.pareto_distance = 0.0;
  score.nash_distance = 0.17677669529663687;
  score.kalai_smorodinsky_distance = 0.125;
  score.max_welfare_distance = 0.0;
  score.offers = {
      {1, "alice", 0.25, 0.875}, {2, "bob", 0.875, 0.25}, {3, "alice", 0.625, 0.5}};
  x.score = score;
  return x;
}

negotiation_record countering_record() {
  auto x = accepted_record();
  x.id = "neg_loyw3v29_zz00_room-b";
  x.status = negotiation_status::countering;
  x.final_proposal = caf::none;
  x.rounds.pop_back();
  x.convergence_score = 0.92;
  x.status_reason.clear();
  x.score = caf::none;
  return x;
}

proposal_patch full_patch() {
  proposal_patch x;
  x.amount = 90000;
  x.currency = "USD";
  x.escrow = false;
  x.description = "Logo, two drafts";
  x.terms = json_object{R"({"drafts":2})"};
  return x;
}

script_reply counter_reply() {
  script_reply x;
  x.action = reply_action::counter;
  x.proposal = full_patch();
  x.reason = "lower please";
  x.delay_ms = 1500;
  return x;
}

script_reply reject_reply() {
  script_reply x;
  x.action = reply_action::reject;
  x.reason = "not for me";
  x.delay_ms = 0;
  return x;
}

agent_preferences preferences() {
  agent_preferences x;
  x.max_auto_approve_amount = 250000;
  x.preferred_currency = "EUR";
  x.escrow_preference = escrow_preference::never;
  x.escrow_threshold = 75000;
  x.style = negotiation_style::conservative;
  return x;
}

agent_profile profile() {
  agent_profile x;
  x.display_name = "Alice Smith";
  x.role = "buyer";
  x.preferences = preferences();
  x.custom_instructions = "Never pay upfront";
  x.capabilities = {{"frontend", 0.75}, {"backend", 0.3}};
  x.load = 0.25;
  return x;
}

brain_spec script_brain() {
  brain_spec x;
  x.kind = brain_kind::script;
  x.side = bargaining_side::seller;
  x.script = {counter_reply(), reject_reply()};
  return x;
}

decision reject_decision() {
  decision x;
  x.action = reply_action::reject;
  x.proposal = logo(50000);
  x.reason = "budget exhausted";
  x.delay_ms = 2500;
  return x;
}

std::vector<json_object> samples(tag<json_object>, wire&) {
  return {terms(), json_object{R"({"nested":{"a":[1,2,3]}})"}, json_object{}};
}

std::vector<proposal> samples(tag<proposal>, wire&) {
  auto plain = logo(1);
  plain.currency = "JPY";
  plain.escrow = false;
  return {logo(123456), plain};
}

std::vector<negotiation_round> samples(tag<negotiation_round>, wire&) {
  return {negotiation_round{3, "bob", logo(80000), round_action::reject, "too high",
                            t0 + 7, "bob:9"},
          negotiation_round{1, "alice", logo(100000), round_action::propose, "", t0, ""}};
}

std::vector<incentive_split> samples(tag<incentive_split>, wire&) {
  return {split(), incentive_split{0.25, 0.25, 0.25, 0.25}};
}

std::vector<negotiation_record> samples(tag<negotiation_record>, wire&) {
  return {accepted_record(), countering_record()};
}

std::vector<std::vector<negotiation_record>>
samples(tag<std::vector<negotiation_record>>, wire&) {
  return {{accepted_record(), countering_record()}, {}};
}

std::vector<negotiation_settings> samples(tag<negotiation_settings>, wire&) {
  return {settings()};
}

std::vector<agent_proposal> samples(tag<agent_proposal>, wire&) {
  return {agent_proposal{"m-1", "neg_1", "alice", logo(100000)}};
}

std::vector<agent_counter> samples(tag<agent_counter>, wire&) {
  return {agent_counter{"m-2", "neg_1", "bob", logo(80000), "too high"}};
}

std::vector<agent_accept> samples(tag<agent_accept>, wire&) {
  return {agent_accept{"m-3", "neg_1", "alice"}};
}

std::vector<agent_reject> samples(tag<agent_reject>, wire&) {
  return {agent_reject{"m-4", "neg_1", "bob", "no budget"}};
}

std::vector<answer_terms> samples(tag<answer_terms>, wire&) {
  answer_terms later;
  later.round = 3;
  later.my_last_amount = 9500;
  later.answer_by_ms = t0 + 30000;
  later.their_first = logo(100000);
  later.my_distinct_offers = 1;
  later.their_distinct_offers = 2;
  return {later, answer_terms{}};
}

std::vector<start_negotiation> samples(tag<start_negotiation>, wire&) {
  return {start_negotiation{"m-0", "alice", "bob", logo(100000), "intent-7"}};
}

std::vector<initiate_negotiation> samples(tag<initiate_negotiation>, wire& w) {
  return {initiate_negotiation{w.as<parley::actors::room_actor>(w.bus), "bob",
                               logo(100000), "intent-7", "scenario:start:1"}};
}

std::vector<negotiation_opened> samples(tag<negotiation_opened>, wire&) {
  return {negotiation_opened{"scenario:start:1", "neg_1"}};
}

/// A buyer's valuation over the amount and escrow.
shared<party_valuation> buyer_valuation() {
  party_valuation x;
  x.utility.domain.amount = {50000, 150000, 5000};
  x.utility.domain.escrow = true;
  x.utility.weights = {{"amount", 0.75}, {"escrow", 0.25}};
  x.utility.reservation = 0.25;
  x.side = bargaining_side::buyer;
  return shared<party_valuation>{x};
}

std::vector<room_member> samples(tag<room_member>, wire& w) {
  return {room_member{"alice", w.as<parley::actors::agent_actor>(w.alice), true, false,
                      buyer_valuation()},
          room_member{"bob", w.as<parley::actors::agent_actor>(w.bob), false, true}};
}

std::vector<join_room> samples(tag<join_room>, wire& w) {
  auto members = samples(tag<room_member>{}, w);
  return {join_room{members[0]}, join_room{members[1]}};
}

/// A sink whose bus wants the lifecycle and error topics.
event_sink sink(wire& w) {
  return event_sink{w.as<parley::actors::bus_actor>(w.bus),
                    std::make_shared<interest>(lifecycle_topics |
                                               topic_set::of(topic::error))};
}

std::vector<room_spec> samples(tag<room_spec>, wire& w) {
  room_spec x;
  x.id = "room-a";
  x.members = samples(tag<room_member>{}, w);
  x.settings = settings();
  x.history_limit = 25;
  x.seed = 0xfeedface12345678ULL; // above INT64_MAX: must stay unsigned
  x.events = sink(w);
  return {x};
}

std::vector<std::vector<parley::actors::room_actor>>
samples(tag<std::vector<parley::actors::room_actor>>, wire& w) {
  return {{w.as<parley::actors::room_actor>(w.alice),
           w.as<parley::actors::room_actor>(w.bob)},
          {}};
}

std::vector<parley::actors::store_actor> samples(tag<parley::actors::store_actor>,
                                                 wire& w) {
  return {w.as<parley::actors::store_actor>(w.bus), {}};
}

std::vector<parley::actors::intake_actor> samples(tag<parley::actors::intake_actor>,
                                                  wire& w) {
  return {w.as<parley::actors::intake_actor>(w.bus), {}};
}

std::vector<topic_set> samples(tag<topic_set>, wire&) {
  return {topic_set::all(), terminal_topics, topic_set{}};
}

std::vector<event_sink> samples(tag<event_sink>, wire& w) {
  return {sink(w), event_sink{}};
}

std::vector<shared_record> samples(tag<shared_record>, wire&) {
  return {shared_record{accepted_record()}, shared_record{}};
}

std::vector<arm_timer> samples(tag<arm_timer>, wire&) {
  return {arm_timer{t0 + 30000, 0x8000000000000002ULL}};
}

std::vector<negotiation_opening> samples(tag<negotiation_opening>, wire&) {
  return {negotiation_opening{"neg_1", "room-a", "intent-7", "scenario:start:1", "alice",
                              "bob", logo(100000), settings()}};
}

std::vector<negotiation_peers> samples(tag<negotiation_peers>, wire& w) {
  return {negotiation_peers{w.as<parley::actors::agent_actor>(w.alice),
                            w.as<parley::actors::agent_actor>(w.bob),
                            w.as<parley::actors::room_actor>(w.bus),
                            w.as<parley::actors::timer_actor>(w.bus),
                            sink(w),
                            true,
                            false,
                            buyer_valuation(),
                            {}},
          negotiation_peers{}};
}

std::vector<open_negotiation> samples(tag<open_negotiation>, wire& w) {
  return {open_negotiation{samples(tag<negotiation_opening>{}, w).front(), t0 * 1000,
                           samples(tag<negotiation_peers>{}, w).front()}};
}

std::vector<resume_negotiation> samples(tag<resume_negotiation>, wire& w) {
  return {resume_negotiation{countering_record(), samples(tag<negotiation_peers>{}, w).front()},
          resume_negotiation{accepted_record(), {}}};
}

std::vector<timer_tick> samples(tag<timer_tick>, wire&) {
  return {timer_tick{9}};
}

std::vector<start_deadline> samples(tag<start_deadline>, wire&) {
  return {start_deadline{"alice:4"}};
}

std::vector<std::vector<room_spec>> samples(tag<std::vector<room_spec>>, wire& w) {
  return {samples(tag<room_spec>{}, w), {}};
}

std::vector<barrier> samples(tag<barrier>, wire& w) {
  return {barrier{0x8000000000000009ULL, w.as<parley::actors::subscriber_actor>(w.alice)},
          barrier{3, {}}};
}

std::vector<negotiation_event> samples(tag<negotiation_event>, wire&) {
  auto counter = countering_record();
  return {negotiation_event{negotiation_event_kind::agreed, (t0 + 3000) * 1000 + 17,
                            "neg_loyw3v28_a1b2_room-a", "room-a", "bob:2", caf::none, 0,
                            2350, shared_record{accepted_record()}},
          negotiation_event{negotiation_event_kind::updated,
                            (t0 + 2000) * 1000,
                            counter.id,
                            counter.room_id,
                            "alice:2",
                            counter.rounds.back(),
                            0.92,
                            0,
                            {}},
          negotiation_event{negotiation_event_kind::expired, (t0 + 4000) * 1000,
                            counter.id, counter.room_id, "", caf::none, 0, 0,
                            shared_record{counter}, true}};
}

std::vector<std::vector<negotiation_event>> samples(tag<std::vector<negotiation_event>>,
                                                    wire& w) {
  return {samples(tag<negotiation_event>{}, w), {}};
}

std::vector<problem_event> samples(tag<problem_event>, wire&) {
  return {problem_event{severity::warning, error_code::out_of_turn,
                        "\"alice\" acted out of turn", t0 + 5, "room-a", "neg_1",
                        "alice", "m-9"}};
}

std::vector<run_summary> samples(tag<run_summary>, wire&) {
  return {run_summary{10, 6, 2, 2, 1, 3}};
}

std::vector<agent_preferences> samples(tag<agent_preferences>, wire&) {
  return {preferences()};
}

std::vector<agent_profile> samples(tag<agent_profile>, wire&) {
  auto with_utility = profile();
  parley::messages::utility_spec u;
  u.domain.amount = {50000, 150000, 5000};
  u.domain.escrow = true;
  u.domain.terms = {{"deadline_days", {"14", "30"}}, {"speed", {"\"express\""}}};
  u.weights = {{"amount", 0.7}, {"deadline_days", 0.3}};
  u.values = {{"deadline_days", {1.0, 0.25}}};
  u.reservation = 0.3;
  with_utility.utility = u;
  return {profile(), with_utility};
}

std::vector<proposal_patch> samples(tag<proposal_patch>, wire&) {
  proposal_patch only_amount;
  only_amount.amount = 42;
  return {full_patch(), only_amount, proposal_patch{}};
}

std::vector<script_reply> samples(tag<script_reply>, wire&) {
  return {counter_reply(), reject_reply()};
}

brain_spec llm_brain() {
  brain_spec x;
  x.kind = brain_kind::llm;
  x.provider = "openai";
  x.model = "llama3";
  x.endpoint = "http://127.0.0.1:8080/v1";
  return x;
}

std::vector<brain_spec> samples(tag<brain_spec>, wire&) {
  return {script_brain(), llm_brain()};
}

std::vector<agent_spec> samples(tag<agent_spec>, wire&) {
  return {agent_spec{"alice", profile(), script_brain()}};
}

std::vector<timer_due> samples(tag<timer_due>, wire&) {
  return {timer_due{0x8000000000000005ULL}, timer_due{7}};
}

std::vector<decision> samples(tag<decision>, wire&) {
  return {reject_decision()};
}

std::vector<deferred_reply> samples(tag<deferred_reply>, wire& w) {
  return {deferred_reply{"neg_1", reject_decision(),
                         w.as<parley::actors::offer_receiver>(w.bob), t0 + 30000}};
}

std::vector<llm_request> samples(tag<llm_request>, wire&) {
  return {llm_request{42, R"({"model":"m","messages":[]})"}};
}

std::vector<llm_response> samples(tag<llm_response>, wire&) {
  return {llm_response{42, 200, R"({"content":[]})", error_code::none, ""},
          llm_response{7, 0, "", error_code::llm_timeout, "timed out after 10000 ms"}};
}

std::vector<agent_event> samples(tag<agent_event>, wire&) {
  return {agent_event{agent_event_kind::tool_call, t0, "alice", "neg_1", "ok",
                      "evaluate_proposal", R"({"decision":"accept"})", false},
          agent_event{agent_event_kind::decision, t0, "bob", "neg_2", "fallback",
                      "counter", "", true}};
}

std::vector<transcript_entry> samples(tag<transcript_entry>, wire&) {
  return {transcript_entry{"voice", "alice", "Shall we say £500 for the logo?"}};
}

std::vector<transcript_flush> samples(tag<transcript_flush>, wire&) {
  return {transcript_flush{3}};
}

std::vector<negotiation_trigger> samples(tag<negotiation_trigger>, wire&) {
  return {negotiation_trigger{"amount", "£500", 0.75, "[voice] alice: £500?", "bob"}};
}

std::vector<error_code> samples(tag<error_code>, wire&) {
  return {error_code::invalid_proposal, error_code::duplicate_message,
          error_code::invalid_scenario};
}

std::vector<ballot_spec> samples(tag<ballot_spec>, wire&) {
  ballot_spec weighted{"ballot_1",
                       "who takes the API?",
                       {"alice", "bob", "reject"},
                       ballot_strategy::weighted,
                       {{"alice", "architect"}, {"bob", "builder"}},
                       2500,
                       "backend"};
  return {ballot_spec{"ballot_0",
                      "ship it?",
                      {"approve", "reject"},
                      ballot_strategy::veto,
                      {{"carol", "guardian"}},
                      5000,
                      ""},
          weighted};
}

std::vector<vote> samples(tag<vote>, wire&) {
  return {vote{"ballot_1", "alice", "approve"}, vote{"ballot_1", "carol", "veto"}};
}

ballot_outcome sample_outcome() {
  return ballot_outcome{ballot_status::approved,
                        "approve",
                        {{"approve", 5}, {"reject", 2}},
                        9,
                        7,
                        true,
                        "5 of 9 eligible voters chose approve"};
}

std::vector<ballot_event> samples(tag<ballot_event>, wire& w) {
  auto spec = samples(tag<ballot_spec>{}, w).front();
  ballot_event proposed{
      ballot_event_kind::propose, 17, "ballot_0", "ship it?", spec, {}, {}};
  ballot_event voted{ballot_event_kind::vote,           18, "ballot_0", "ship it?", {},
                     vote{"ballot_0", "carol", "veto"}, {}};
  ballot_event resolved{ballot_event_kind::result, 19, "ballot_0", "ship it?", {}, {},
                        sample_outcome()};
  return {proposed, voted, resolved};
}

std::vector<auction_spec> samples(tag<auction_spec>, wire&) {
  return {auction_spec{
      "auction_1", "frontend", {{"alice", "architect"}, {"bob", ""}}, 3000, 1200}};
}

std::vector<bid> samples(tag<bid>, wire&) {
  return {bid{"auction_1", "alice", 0.9, 0.25, 1500}, bid{"auction_1", "bob", 0, 1, 1}};
}

std::vector<auction_event> samples(tag<auction_event>, wire&) {
  auction_outcome won{auction_status::awarded,
                      "alice",
                      {{"alice", "architect", 0.8725, 0.9, 0.75, 1},
                       {"bob", "", 0.3, 0.5, 0.5, 0.1667}},
                      "alice scored 0.8725"};
  return {
      auction_event{auction_event_kind::bid,
                    5,
                    "auction_1",
                    "frontend",
                    bid{"auction_1", "alice", 0.9, 0.25, 1500},
                    {}},
      auction_event{auction_event_kind::result, 6, "auction_1", "frontend", {}, won},
      auction_event{auction_event_kind::result,
                    7,
                    "auction_2",
                    "x",
                    {},
                    auction_outcome{auction_status::no_bids, "", {}, "no bids"}}};
}

std::vector<ballot_invite> samples(tag<ballot_invite>, wire& w) {
  return {ballot_invite{w.as<parley::actors::ballot_actor>(w.bob),
                        samples(tag<ballot_spec>{}, w).back()}};
}

std::vector<auction_invite> samples(tag<auction_invite>, wire& w) {
  return {auction_invite{w.as<parley::actors::auction_actor>(w.bob),
                         samples(tag<auction_spec>{}, w).front()}};
}

std::vector<cast_vote> samples(tag<cast_vote>, wire& w) {
  return {cast_vote{w.as<parley::actors::ballot_actor>(w.alice),
                    vote{"ballot_1", "alice", "reject"}}};
}

std::vector<place_bid> samples(tag<place_bid>, wire& w) {
  return {place_bid{w.as<parley::actors::auction_actor>(w.alice),
                    bid{"auction_1", "alice", 0.5, 0.5, 700}}};
}

std::vector<consensus_peers> samples(tag<consensus_peers>, wire& w) {
  return {consensus_peers{sink(w), w.as<parley::actors::subscriber_actor>(w.bus),
                          {{"alice", w.as<parley::actors::agent_actor>(w.alice)},
                           {"bob", w.as<parley::actors::agent_actor>(w.bob)}}},
          consensus_peers{}};
}

std::vector<open_ballot> samples(tag<open_ballot>, wire& w) {
  return {open_ballot{samples(tag<ballot_spec>{}, w).back(),
                      samples(tag<consensus_peers>{}, w).front(),
                      w.as<parley::actors::timer_actor>(w.bus)}};
}

std::vector<open_auction> samples(tag<open_auction>, wire& w) {
  return {open_auction{samples(tag<auction_spec>{}, w).front(),
                       samples(tag<consensus_peers>{}, w).front(),
                       w.as<parley::actors::timer_actor>(w.bus)}};
}

std::vector<tool_definition> samples(tag<tool_definition>, wire&) {
  return {tool_definition{"send_message_to_user", "Tell your user.",
                          json_object{R"({"required":["message"],"type":"object"})"}}};
}

std::vector<std::vector<tool_definition>> samples(tag<std::vector<tool_definition>>,
                                                  wire& w) {
  return {samples(tag<tool_definition>{}, w), {}};
}

std::vector<set_tools> samples(tag<set_tools>, wire& w) {
  return {set_tools{samples(tag<tool_definition>{}, w)}, set_tools{}};
}

std::vector<llm_attempt> samples(tag<llm_attempt>, wire&) {
  return {llm_attempt{42, error_code::none, "", 429, "slow down", 3000},
          llm_attempt{43, error_code::none, "", 200, R"({"content":[]})", caf::none},
          llm_attempt{44, error_code::llm_unavailable, "Couldn't connect to server", 0,
                      "", caf::none}};
}

std::vector<store_query> samples(tag<store_query>, wire&) {
  store_query full;
  full.initiator = "did:key:z6MkAlice";
  full.responder = "did:key:z6MkBob";
  full.state = "counter_proposed";
  full.active_only = true;
  full.intent_id = "4f1c2a9e-1b2c-4d3e-8f40-123456789abc";
  full.min_convergence = 0.8;
  full.cursor = "1700000000000:0190a4c2-0000-7000-8000-000000000001";
  full.limit = 20;
  return {full, store_query{}};
}

std::vector<store_page> samples(tag<store_page>, wire&) {
  return {store_page{{accepted_record(), countering_record()}, "1700000000000:x"},
          store_page{}};
}

std::vector<store_stats> samples(tag<store_stats>, wire&) {
  store_stats x;
  x.success_by_agent = {agent_success{"did:key:a", 3, 1, 1, 60.0}};
  x.rounds_by_outcome = {outcome_rounds{"accepted", 4.0}, outcome_rounds{"rejected", 2.5}};
  x.current = {state_count{"initiated", 2, 12.5}};
  x.expiration = expiration_rate{1, 4, 20.0};
  x.high_convergence = {converging_negotiation{"id-1", "did:key:a", "did:key:b", 0.95, 3}};
  x.outcomes.ended = 5;
  x.outcomes.agreed = 4;
  x.outcomes.agreement_rate_pct = 80.0;
  x.outcomes.rounds_to_agreement = parley::messages::percentiles{4, 6};
  x.outcomes.seconds_to_agreement = parley::messages::percentiles{0.5, 2.25};
  return {x, store_stats{}};
}

std::vector<std::vector<agent_spec>> samples(tag<std::vector<agent_spec>>, wire& w) {
  return {samples(tag<agent_spec>{}, w), {}};
}

std::vector<room_request> samples(tag<room_request>, wire&) {
  return {room_request{"room-1", {"alice", "bob"}}};
}

std::vector<recovery_report> samples(tag<recovery_report>, wire&) {
  return {recovery_report{3, 1, 12, 2, {"negotiation neg_9: agent \"eve\" is gone"}},
          recovery_report{}};
}

offer_response an_offer() {
  return {"m-1",
          "collab-1",
          "bob",
          "Bob",
          offer_response_type::negotiate,
          offer_decision::conditional,
          "a venue for 50 people",
          {"weekend only"},
          "free on Saturday",
          "",
          {{"date", "Friday", "Saturday", "busy on Friday"}},
          80};
}

channel_proposal a_channel_proposal() {
  return {"collab-1-v2",
          "d-1",
          2,
          "AI meetup",
          "",
          {{"bob", "Bob", "venue", "hosts", {"carol"}, false, "Saturday"}},
          terms(),
          "",
          true,
          {"carol"},
          {"bob"},
          {{"a speaker", {"speaker"}}},
          confidence_level::low,
          t0};
}

std::vector<offer_response> samples(tag<offer_response>, wire&) {
  return {an_offer(), offer_response{"m-2",
                                     "collab-1",
                                     "carol",
                                     "",
                                     offer_response_type::offer,
                                     offer_decision::decline,
                                     "",
                                     {},
                                     "",
                                     "away",
                                     {},
                                     0}};
}

std::vector<proposal_feedback> samples(tag<proposal_feedback>, wire&) {
  return {proposal_feedback{"m-3", "collab-1", "bob", feedback_type::negotiate,
                            "start at 3 pm", "travel time"},
          proposal_feedback{"m-4", "collab-1", "carol", feedback_type::accept, "", ""}};
}

std::vector<demand_offer> samples(tag<demand_offer>, wire& w) {
  return {demand_offer{w.as<parley::actors::channel_actor>(w.bus),
                       "collab-1",
                       "d-1",
                       "an AI meetup in Beijing",
                       {"venue", "speaker"},
                       2,
                       "has a venue",
                       87}};
}

std::vector<proposal_review> samples(tag<proposal_review>, wire& w) {
  auto proposal = a_channel_proposal();
  return {proposal_review{w.as<parley::actors::channel_actor>(w.bus), "collab-1", "d-1",
                          shared<channel_proposal>{proposal}, 2, 5,
                          proposal.assignments.front()},
          proposal_review{{}, "collab-1", "d-1", {}, 1, 5, caf::none}};
}

std::vector<channel_event> samples(tag<channel_event>, wire&) {
  channel_event offered;
  offered.kind = channel_event_kind::offer_submitted;
  offered.at_ms = t0;
  offered.channel_id = "collab-1";
  offered.demand_id = "d-1";
  offered.offer = an_offer();
  channel_event evaluated = offered;
  evaluated.kind = channel_event_kind::feedback_evaluated;
  evaluated.offer = caf::none;
  evaluated.round = 5;
  evaluated.tally = channel_tally{2, 1, 1, 0.6667, channel_decision::force_finalize};
  channel_event failed = evaluated;
  failed.kind = channel_event_kind::failed;
  failed.proposal = a_channel_proposal();
  failed.reason = "low_acceptance";
  failed.compromise_suggestion = "Only 1 of 3 accepted.";
  channel_event created;
  created.kind = channel_event_kind::created;
  created.channel_id = "collab-2";
  created.agents = {"bob", "carol"};
  created.setup =
      channel_setup{"需要场地",
                    {"场地提供"},
                    {candidate{"bob", "Bob", "offers 场地提供", 100, {"场地提供"}}},
                    "collab-1",
                    1,
                    channel_settings{}};
  channel_event understood;
  understood.kind = channel_event_kind::demand_understood;
  understood.demand_id = "d-2";
  understood.understanding = demand_understanding{
      "需要场地和嘉宾", {}, {"场地提供", "演讲嘉宾"}, {}, confidence_level::high, true};
  channel_event filtered;
  filtered.kind = channel_event_kind::filter_completed;
  filtered.demand_id = "d-2";
  filtered.selection = candidate_selection{
      {candidate{"bob", "Bob", "offers 场地提供", 100, {"场地提供"}}},
      selection_source::fallback,
      "x"};
  return {offered, evaluated, failed, created, understood, filtered};
}

std::vector<register_member> samples(tag<register_member>, wire& w) {
  return {
      register_member{channel_profile{"bob", "Bob", {"场地提供", "venue"}, "", true},
                      w.as<parley::actors::channel_member_actor>(w.bob)},
      register_member{channel_profile{"carol", "", {}, "retired", false}, {}}};
}

std::vector<submit_demand> samples(tag<submit_demand>, wire&) {
  return {submit_demand{"我想在北京办一场AI主题聚会，需要场地和嘉宾", "user_alice", ""},
          submit_demand{"an AI meetup", "", "d-given"}};
}

demand_understanding an_understanding() {
  return {"需要场地和嘉宾",       {},   {"场地提供", "演讲嘉宾"}, {},
          confidence_level::high, false};
}

std::vector<demand_receipt> samples(tag<demand_receipt>, wire&) {
  return {
      demand_receipt{"d-1", "collab-1", demand_status::processing, an_understanding()}};
}

std::vector<demand_view> samples(tag<demand_view>, wire&) {
  channel_outcome top{
      "collab-1",           "", 0, {"场地提供", "演讲嘉宾"}, demand_status::finalized,
      a_channel_proposal(), ""};
  channel_outcome sub{
      "collab-1-sub1", "collab-1",       1, {"演讲嘉宾"}, demand_status::failed,
      caf::none,       "no_participants"};
  return {demand_view{"d-1",
                      "user_alice",
                      "需要场地和嘉宾",
                      demand_status::processing,
                      an_understanding(),
                      {top, sub},
                      a_channel_proposal()},
          demand_view{"d-2", "", "x", demand_status::failed, {}, {}, caf::none}};
}

std::vector<std::vector<channel_event>> samples(tag<std::vector<channel_event>>,
                                                wire& w) {
  return {samples(tag<channel_event>{}, w), {}};
}

std::vector<channel_record> samples(tag<channel_record>, wire&) {
  channel_record open{"collab-1",           "d-1", "", 0,  "negotiating", 2,
                      a_channel_proposal(), 3,     1,  t0, t0 + 500};
  channel_record sub{"collab-2", "d-1", "collab-1", 1,  "created", 1,
                     caf::none,  0,     0,          t0, t0};
  return {open, sub};
}

std::vector<std::vector<channel_record>> samples(tag<std::vector<channel_record>>,
                                                 wire& w) {
  return {samples(tag<channel_record>{}, w), {}};
}

std::vector<cluster_event> samples(tag<cluster_event>, wire&) {
  cluster_event x;
  x.sequence = 42;
  x.topic = static_cast<std::uint8_t>(topic::offer_submitted);
  x.negotiation_id = "n-1";
  x.channel_id = "collab-1";
  x.demand_id = "d-1";
  x.at_ms = t0;
  x.payload = R"({"type":"offer.submitted","note":"caf\u00e9 \"x\""})";
  return {x, cluster_event{}};
}

std::vector<cluster_event_batch> samples(tag<cluster_event_batch>, wire& w) {
  return {cluster_event_batch{"node-b", 0xfeedface12345678ULL,
                              samples(tag<cluster_event>{}, w)},
          cluster_event_batch{}};
}

std::vector<std::vector<room_request>> samples(tag<std::vector<room_request>>, wire& w) {
  return {samples(tag<room_request>{}, w), {}};
}

std::vector<room_view> samples(tag<room_view>, wire&) {
  return {
      room_view{"room-1", {"alice", "bob"}, countering_record(), {accepted_record()}},
      room_view{"room-2", {"carol", "dave"}, caf::none, {}}};
}

std::vector<routed> samples(tag<routed>, wire& w) {
  return {routed{route_kind::negotiation, 0,
                 caf::make_message(samples(tag<agent_counter>{}, w).front())},
          routed{route_kind::bus, 0,
                 caf::make_message(samples(tag<negotiation_event>{}, w).front())},
          routed{route_kind::agent, 0x8000000000000009ULL, caf::message{}}};
}

std::vector<routed_batch> samples(tag<routed_batch>, wire& w) {
  routed_batch batch;
  for (auto& x : samples(tag<routed>{}, w))
    parley::cluster::bridge::pack(batch, std::move(x));
  return {std::move(batch), routed_batch{}};
}

/// The bridge's envelopes (messages/bridge.hpp) carry any message between
/// two processes' bridges and never leave them: they have no JSON form.
template <class T>
constexpr bool has_json_form =
    !std::is_same_v<T, routed> && !std::is_same_v<T, routed_batch> &&
    !std::is_same_v<T, cluster_event> && !std::is_same_v<T, cluster_event_batch>;

// -- equality: operator==, or field by field through inspect -------------------

template <class T, class = void> struct has_equal : std::false_type {};

template <class T>
struct has_equal<
    T, std::void_t<decltype(std::declval<const T&>() == std::declval<const T&>())>>
    : std::true_type {};

template <class T>
std::enable_if_t<has_equal<T>::value, bool> same(const T& x, const T& y);
template <class T>
std::enable_if_t<!has_equal<T>::value, bool> same(const T& x, const T& y);
template <class T> bool same(const caf::optional<T>& x, const caf::optional<T>& y);
template <class T> bool same(const std::vector<T>& x, const std::vector<T>& y);
bool same(const event_sink& x, const event_sink& y);
bool same(const caf::message& x, const caf::message& y);

/// The addresses of a value's fields, in the order its inspect lists them.
class field_addresses {
public:
  using result_type = void;

  std::vector<const void*> fields;

  template <class... Ts> void operator()(Ts&&... xs) { (add(xs), ...); }

private:
  template <class T> void add(const T&) {
    static_assert(caf::meta::is_annotation<T>::value, "fields must be named");
  }

  template <class T> void add(const named_field<T>& x) { fields.push_back(&x.value); }
};

/// Compares each field of a value with the same field of another value of
/// its type, given by address.
class field_comparison {
public:
  using result_type = void;

  explicit field_comparison(const std::vector<const void*>& other) : other_(other) {}

  bool equal = true;

  template <class... Ts> void operator()(Ts&&... xs) { (check(xs), ...); }

private:
  template <class T> void check(const T&) {}

  template <class T> void check(const named_field<T>& x) {
    const auto& y = *static_cast<const std::remove_const_t<T>*>(other_.at(next_++));
    equal = equal && same(x.value, y);
  }

  const std::vector<const void*>& other_;
  std::size_t next_ = 0;
};

template <class T>
std::enable_if_t<has_equal<T>::value, bool> same(const T& x, const T& y) {
  return x == y;
}

template <class T>
std::enable_if_t<!has_equal<T>::value, bool> same(const T& x, const T& y) {
  field_addresses ys;
  inspect(ys, const_cast<T&>(y));
  field_comparison f{ys.fields};
  inspect(f, const_cast<T&>(x));
  return f.equal;
}

template <class T> bool same(const caf::optional<T>& x, const caf::optional<T>& y) {
  return static_cast<bool>(x) == static_cast<bool>(y) && (!x || same(*x, *y));
}

template <class T> bool same(const std::vector<T>& x, const std::vector<T>& y) {
  return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const T& a, const T& b) { return same(a, b); });
}

/// Sinks compare by bus and wanted topics (their inspect has no fields to
/// point at).
/// Messages are the same when they hold the same values (compared as CAF
/// renders them, which lists every field).
bool same(const caf::message& x, const caf::message& y) {
  return x.type_token() == y.type_token() && to_string(x) == to_string(y);
}

bool same(const event_sink& x, const event_sink& y) {
  return x.bus() == y.bus() &&
         x.wants_any(topic_set::all()) == y.wants_any(topic_set::all()) &&
         x.wants(topic::error) == y.wants(topic::error) &&
         x.wants(topic::negotiation_updated) == y.wants(topic::negotiation_updated) &&
         x.wants(topic::agent_message) == y.wants(topic::agent_message);
}

/// What survives JSON: actor handles have no JSON form and come back unset.
template <class T> T without_actors(T x) {
  return x;
}

initiate_negotiation without_actors(initiate_negotiation x) {
  x.room = decltype(x.room){};
  return x;
}

room_member without_actors(room_member x) {
  x.agent = decltype(x.agent){};
  return x;
}

join_room without_actors(join_room x) {
  x.member = without_actors(std::move(x.member));
  return x;
}

deferred_reply without_actors(deferred_reply x) {
  x.to = decltype(x.to){};
  return x;
}

barrier without_actors(barrier x) {
  x.origin = decltype(x.origin){};
  return x;
}

ballot_invite without_actors(ballot_invite x) {
  x.ballot = decltype(x.ballot){};
  return x;
}

auction_invite without_actors(auction_invite x) {
  x.auction = decltype(x.auction){};
  return x;
}

cast_vote without_actors(cast_vote x) {
  x.ballot = decltype(x.ballot){};
  return x;
}

place_bid without_actors(place_bid x) {
  x.auction = decltype(x.auction){};
  return x;
}

event_sink without_actors(const event_sink& x) {
  return event_sink{{}, std::make_shared<interest>(
                            x.wants_any(topic_set::all()) ? lifecycle_topics |
                                                                topic_set::of(topic::error)
                                                          : topic_set{})};
}

negotiation_peers without_actors(negotiation_peers x) {
  x.initiator = parley::actors::agent_actor{};
  x.responder = parley::actors::agent_actor{};
  x.room = parley::actors::room_actor{};
  x.timers = parley::actors::timer_actor{};
  x.events = without_actors(x.events);
  return x;
}

open_negotiation without_actors(open_negotiation x) {
  x.peers = without_actors(std::move(x.peers));
  return x;
}

resume_negotiation without_actors(resume_negotiation x) {
  x.peers = without_actors(std::move(x.peers));
  return x;
}

consensus_peers without_actors(consensus_peers x) {
  x.events = without_actors(x.events);
  x.reporter = parley::actors::subscriber_actor{};
  for (auto& entry : x.invite)
    entry.second = parley::actors::agent_actor{};
  return x;
}

demand_offer without_actors(demand_offer x) {
  x.channel = parley::actors::channel_actor{};
  return x;
}

proposal_review without_actors(proposal_review x) {
  x.channel = parley::actors::channel_actor{};
  return x;
}

register_member without_actors(register_member x) {
  x.agent = parley::actors::channel_member_actor{};
  return x;
}

open_ballot without_actors(open_ballot x) {
  x.with = without_actors(std::move(x.with));
  x.timers = parley::actors::timer_actor{};
  return x;
}

open_auction without_actors(open_auction x) {
  x.with = without_actors(std::move(x.with));
  x.timers = parley::actors::timer_actor{};
  return x;
}

room_spec without_actors(room_spec x) {
  for (auto& m : x.members)
    m.agent = parley::actors::agent_actor{};
  x.events = without_actors(x.events);
  return x;
}

std::vector<parley::actors::room_actor>
without_actors(std::vector<parley::actors::room_actor> xs) {
  for (auto& x : xs)
    x = parley::actors::room_actor{};
  return xs;
}

parley::actors::store_actor without_actors(parley::actors::store_actor) {
  return {};
}

parley::actors::intake_actor without_actors(parley::actors::intake_actor) {
  return {};
}

std::vector<room_spec> without_actors(std::vector<room_spec> xs) {
  for (auto& x : xs)
    x = without_actors(std::move(x));
  return xs;
}

// -- walking the type-ID block ------------------------------------------------

constexpr auto first_id = caf::id_block::parley::begin;
constexpr auto block_size = caf::id_block::parley::end - caf::id_block::parley::begin;

template <class F, caf::type_id_t... Is>
void for_each_offset(F& f, std::integer_sequence<caf::type_id_t, Is...>) {
  (f(tag<typename caf::type_by_id<first_id + Is>::type>{}), ...);
}

/// Calls `f(tag<T>{})` for every T in the type-ID block: a type added to the
/// block without samples here does not compile.
template <class F> void for_each_wire_type(F f) {
  for_each_offset(f, std::make_integer_sequence<caf::type_id_t, block_size>{});
}

} // namespace

TEST_CASE("the type-ID block starts at CAF's first custom id", "[unit]") {
  CHECK(first_id == caf::first_custom_type_id);
  CHECK(caf::type_id<json_object>::value == caf::first_custom_type_id);
  CHECK(caf::type_id<proposal>::value == caf::first_custom_type_id + 1);
  CHECK(std::string{caf::type_name<proposal>::value} == "parley::messages::proposal");
  CHECK(std::string{caf::type_name<error_code>::value} ==
        "parley::messages::error_code");
  CHECK(std::string{caf::type_name<std::vector<negotiation_record>>::value} ==
        "std::vector<parley::messages::negotiation_record>");
}

TEST_CASE("register_types gives every wire type its block name", "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    INFO(caf::type_name<type>::value);
    CHECK(w.sys.types().portable_name(0, &typeid(type)) == caf::type_name<type>::value);
  });
}

TEST_CASE("every wire type survives CAF's binary serializer", "[unit]") {
  wire w;
  std::size_t checked = 0;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    auto xs = samples(t, w);
    REQUIRE_FALSE(xs.empty());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      INFO(caf::type_name<type>::value << " sample " << i);
      CHECK(same(w.round_trip(xs[i]), xs[i]));
      ++checked;
    }
  });
  CHECK(checked >= static_cast<std::size_t>(block_size));
}

TEST_CASE("every wire type survives the binary serializer inside a caf::message",
          "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    for (const auto& x : samples(t, w)) {
      INFO(caf::type_name<type>::value);
      auto msg = w.message_round_trip(x);
      REQUIRE(msg.size() == 1);
      REQUIRE(msg.template match_elements<type>());
      CHECK(same(msg.template get_as<type>(0), x));
    }
  });
}

TEST_CASE("every wire type survives the bridge's codec in a frame", "[unit]") {
  wire w;
  routed_batch batch;
  std::vector<caf::message> sent;
  for_each_wire_type([&](auto t) {
    for (const auto& x : samples(t, w)) {
      sent.push_back(caf::make_message(x));
      parley::cluster::bridge::pack(
          batch, routed{route_kind::agent, sent.size() * 1000, sent.back()});
    }
  });
  auto frame = w.round_trip(batch);
  parley::cluster::bridge::batch_reader reader{frame};
  routed x;
  std::size_t i = 0;
  for (; i < sent.size() && reader.next(x); ++i) {
    INFO(to_string(sent[i]));
    CHECK(x.kind == route_kind::agent);
    CHECK(x.slot == (i + 1) * 1000);
    CHECK(same(x.content, sent[i]));
  }
  CHECK(i == sent.size());
  CHECK_FALSE(reader.next(x));
}

TEST_CASE("an offer and its terms cross the bridge's codec as one tagged message",
          "[unit]") {
  wire w;
  auto terms = samples(tag<answer_terms>{}, w).front();
  std::vector<caf::message> sent{
      caf::make_message(samples(tag<agent_counter>{}, w).front(), terms),
      caf::make_message(samples(tag<agent_proposal>{}, w).front(), terms)};
  routed_batch batch;
  for (const auto& x : sent)
    parley::cluster::bridge::pack(batch, routed{route_kind::agent, 1, x});
  // Written by the codec, not left to CAF's serializer.
  CHECK(batch.others.empty());
  auto frame = w.round_trip(batch);
  parley::cluster::bridge::batch_reader reader{frame};
  routed x;
  for (const auto& y : sent) {
    REQUIRE(reader.next(x));
    CHECK(same(x.content, y));
  }
  CHECK_FALSE(reader.next(x));
}

TEST_CASE("a bridge frame cut short ends its messages, without an exception",
          "[unit]") {
  wire w;
  routed_batch batch;
  auto counter = samples(tag<agent_counter>{}, w).front();
  parley::cluster::bridge::pack(
      batch, routed{route_kind::negotiation, 0, caf::make_message(counter)});
  parley::cluster::bridge::pack(
      batch, routed{route_kind::negotiation, 0, caf::make_message(counter)});
  batch.packed.resize(batch.packed.size() - 3);
  parley::cluster::bridge::batch_reader reader{batch};
  routed x;
  REQUIRE(reader.next(x));
  CHECK(same(x.content, caf::make_message(counter)));
  CHECK_FALSE(reader.next(x));
  routed_batch untagged_missing;
  parley::cluster::bridge::pack(untagged_missing,
                                routed{route_kind::bus, 0, caf::message{}});
  untagged_missing.others.clear();
  parley::cluster::bridge::batch_reader empty{untagged_missing};
  CHECK_FALSE(empty.next(x));
}

TEST_CASE("equality through the field list sees a change in any field", "[unit]") {
  wire w;
  auto x = samples(tag<agent_counter>{}, w).front();
  CHECK(same(x, x));
  auto other_reason = x;
  other_reason.reason += "!";
  CHECK_FALSE(same(x, other_reason));
  auto other_amount = x;
  other_amount.proposal.amount += 1;
  CHECK_FALSE(same(x, other_amount));
  auto spec = samples(tag<room_spec>{}, w).front();
  auto other_member = spec;
  other_member.members.back().llm = !other_member.members.back().llm;
  CHECK_FALSE(same(spec, other_member));
}

TEST_CASE("a message with several wire types keeps their order", "[unit]") {
  wire w;
  auto counter = samples(tag<agent_counter>{}, w).front();
  auto timer = timer_due{12};
  auto msg = w.from_bytes<caf::message>(
      w.to_bytes(caf::make_message(counter, timer, error_code::out_of_turn)));
  REQUIRE((msg.match_elements<agent_counter, timer_due, error_code>()));
  CHECK(same(msg.get_as<agent_counter>(0), counter));
  CHECK(msg.get_as<timer_due>(1).generation == 12);
  CHECK(msg.get_as<error_code>(2) == error_code::out_of_turn);
}

TEST_CASE("an actor handle comes back as the same actor", "[unit]") {
  wire w;
  auto spec = samples(tag<room_spec>{}, w).front();
  auto back = w.round_trip(spec);
  CHECK(back.members.at(0).agent == w.as<parley::actors::agent_actor>(w.alice));
  CHECK(back.members.at(1).agent == w.as<parley::actors::agent_actor>(w.bob));
  CHECK(back.events.bus() == w.as<parley::actors::bus_actor>(w.bus));
  CHECK(back.events.bus() != w.as<parley::actors::bus_actor>(w.alice));
}

TEST_CASE("every wire type survives to_json and from_json_value", "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    if constexpr (has_json_form<type>) {
      for (const auto& x : samples(t, w)) {
        INFO(caf::type_name<type>::value);
        json j = x;
        INFO(j.dump());
        CHECK(same(from_json_value<type>(j), without_actors(x)));
      }
    }
  });
}

TEST_CASE("every wire type survives JSON text (dump, then parse)", "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    if constexpr (has_json_form<type>) {
      for (const auto& x : samples(t, w)) {
        json j = x;
        auto text = j.dump();
        INFO(caf::type_name<type>::value << ": " << text);
        CHECK(same(from_json_value<type>(parse_json(text)), without_actors(x)));
      }
    }
  });
}

TEST_CASE("actor handles are written as whether they are set", "[unit]") {
  wire w;
  json set = samples(tag<room_member>{}, w).front();
  CHECK(set.at("agent") == true);
  json unset = room_member{"alice", {}, false};
  CHECK(unset.at("agent") == false);
  json spec = samples(tag<room_spec>{}, w).front();
  CHECK(spec.at("members").at(1).at("agent_id") == "bob");
  CHECK(spec.at("events").at("bus") == true);
}

// -- field lists --------------------------------------------------------------

namespace {

/// Collects the JSON names and presences a type's inspect gives its fields.
class field_names {
public:
  using result_type = void;
  static constexpr bool reads_state = true;
  static constexpr bool writes_state = false;

  std::map<std::string, json_presence> names;

  template <class... Ts> void operator()(Ts&&... xs) { (add(xs), ...); }

private:
  template <class T> void add(const T&) {}

  template <class T> void add(const named_field<T>& x) {
    names.emplace(x.name, x.presence);
  }
};

template <class T, class = void> struct has_inspect : std::false_type {};

template <class T>
struct has_inspect<
    T, std::void_t<decltype(inspect(std::declval<field_names&>(), std::declval<T&>()))>>
    : std::true_type {};

/// The named fields of `x` (none for a type without a field list).
template <class T> std::map<std::string, json_presence> names_of(const T& x) {
  field_names f;
  if constexpr (has_inspect<T>::value)
    inspect(f, const_cast<T&>(x));
  return f.names;
}

} // namespace

TEST_CASE("a wire type's JSON keys are the fields its inspect names", "[unit]") {
  wire w;
  std::size_t listed = 0;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    if constexpr (has_json_form<type>) {
      for (const auto& x : samples(t, w)) {
        auto names = names_of(x);
        if (names.empty())
          continue;
        ++listed;
        json j = x;
        INFO(caf::type_name<type>::value << ": " << j.dump());
        for (auto i = j.begin(); i != j.end(); ++i)
          CHECK((names.count(i.key()) == 1 || i.key() == "type"));
        for (const auto& [name, presence] : names)
          if (presence == json_presence::required)
            CHECK(j.contains(name));
      }
    }
  });
  CHECK(listed >= 60);
}

TEST_CASE("a wire type refuses a key its inspect does not name", "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    if constexpr (has_json_form<type>) {
      for (const auto& x : samples(t, w)) {
        if (names_of(x).empty())
          continue;
        json j = x;
        j["no_such_field"] = 1;
        INFO(caf::type_name<type>::value);
        CHECK_THROWS_WITH(from_json_value<type>(j), "no_such_field: unknown field");
      }
    }
  });
}

TEST_CASE("a wire type needs every field its inspect requires", "[unit]") {
  wire w;
  for_each_wire_type([&](auto t) {
    using type = typename decltype(t)::type;
    if constexpr (has_json_form<type>) {
      for (const auto& x : samples(t, w)) {
        for (const auto& [name, presence] : names_of(x)) {
          if (presence != json_presence::required)
            continue;
          json j = x;
          j.erase(name);
          INFO(caf::type_name<type>::value);
          CHECK_THROWS_WITH(from_json_value<type>(j),
                            name + ": required field is missing");
        }
      }
    }
  });
}

TEST_CASE("named fields are invisible to CAF's inspectors", "[unit]") {
  wire w;
  auto x = logo(87000);
  std::vector<char> plain;
  caf::binary_serializer sink{w.sys, plain};
  REQUIRE_FALSE(sink(x.amount, x.currency, x.escrow, x.description, x.terms.text));
  CHECK(w.to_bytes(x) == plain);
  CHECK(caf::deep_to_string(x) ==
        R"(proposal(87000, "EUR", true, "Logo design", )"
        R"(json_object("{\"deadline\":\"friday\",\"rush\":true}")))");
}

// -- JSON field snapshots -----------------------------------------------------

namespace {

std::set<std::string> keys_of(const json& j) {
  std::set<std::string> result;
  for (auto i = j.begin(); i != j.end(); ++i)
    result.insert(i.key());
  return result;
}

} // namespace

TEST_CASE("negotiation_record's JSON has the record's snake_case fields", "[unit]") {
  json j = accepted_record();
  CHECK(keys_of(j) == std::set<std::string>{
                          "id", "room_id", "intent_id", "status", "initiator",
                          "responder", "current_proposal", "final_proposal", "rounds",
                          "max_rounds", "round_timeout_ms", "total_timeout_ms",
                          "convergence_score", "incentive_split", "created_at",
                          "updated_at", "expires_at", "status_reason", "score"});
  CHECK(keys_of(j.at("score")) ==
        std::set<std::string>{"utilities", "advantages", "reservation", "welfare",
                              "nash_product", "nash_point", "pareto_distance",
                              "nash_distance", "kalai_smorodinsky_distance",
                              "max_welfare_distance", "offers"});
  CHECK(keys_of(j.at("score").at("offers").at(0)) ==
        std::set<std::string>{"round", "from_agent", "initiator", "responder"});
  CHECK_FALSE(json(countering_record()).contains("score"));
  CHECK(keys_of(j.at("rounds").at(1)) ==
        std::set<std::string>{"round", "from_agent", "proposal", "action", "reason",
                              "timestamp", "message_id"});
  CHECK(keys_of(j.at("current_proposal")) ==
        std::set<std::string>{"amount", "currency", "escrow", "description", "terms"});
  CHECK(keys_of(j.at("incentive_split")) ==
        std::set<std::string>{"agent", "broker", "validator", "pool"});
  CHECK(j.at("status") == "accepted");
  CHECK(j.at("rounds").at(1).at("action") == "counter");
  CHECK(j.at("current_proposal").at("terms") ==
        json{{"deadline", "friday"}, {"rush", true}});
  CHECK(j.at("convergence_score") == 1.0);
}

TEST_CASE("an absent final_proposal is written as null", "[unit]") {
  json j = countering_record();
  REQUIRE(j.contains("final_proposal"));
  CHECK(j.at("final_proposal").is_null());
  CHECK(j.at("status") == "countering");
}

TEST_CASE("the four agent messages' JSON fields and type tags", "[unit]") {
  wire w;
  json proposal_json = samples(tag<agent_proposal>{}, w).front();
  CHECK(keys_of(proposal_json) == std::set<std::string>{"type", "message_id",
                                                        "negotiation_id", "from_agent",
                                                        "proposal"});
  CHECK(proposal_json.at("type") == "agent_proposal");

  json counter_json = samples(tag<agent_counter>{}, w).front();
  CHECK(keys_of(counter_json) == std::set<std::string>{"type", "message_id",
                                                       "negotiation_id", "from_agent",
                                                       "proposal", "reason"});
  CHECK(counter_json.at("type") == "agent_counter");

  json accept_json = samples(tag<agent_accept>{}, w).front();
  CHECK(keys_of(accept_json) ==
        std::set<std::string>{"type", "message_id", "negotiation_id", "from_agent"});
  CHECK(accept_json.at("type") == "agent_accept");

  json reject_json = samples(tag<agent_reject>{}, w).front();
  CHECK(keys_of(reject_json) == std::set<std::string>{"type", "message_id",
                                                      "negotiation_id", "from_agent",
                                                      "reason"});
  CHECK(reject_json.at("type") == "agent_reject");
}

} // namespace unit_messages_roundtrip_test
