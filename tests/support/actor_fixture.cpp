#include "support/actor_fixture.hpp"

#include "caf/event_based_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/bus/actor.hpp"
#include "actors/timer/actor.hpp"
#include "runtime/node.hpp"
#include "messages/agent_messages.hpp"
#include "messages/channel_event.hpp"
#include "messages/channel_messages.hpp"
#include "messages/llm.hpp"

namespace parley::test {

namespace {

caf::actor_system_config& simulated(caf::actor_system_config& cfg) {
  runtime::system_options options;
  options.simulated_time = true;
  runtime::configure(cfg, options);
  return cfg;
}

// The recorder and probes write into the fixture's memory: safe because the
// test coordinator runs every actor on the test's own thread.
actors::subscriber_actor::behavior_type recorder(actors::subscriber_actor::pointer,
                                                 recorded* out) {
  return {
      [out](const messages::negotiation_event& x) {
        out->negotiation_events.push_back(x);
        messages::apply(out->records[x.negotiation_id], x);
      },
      [out](const messages::problem_event& x) { out->problems.push_back(x); },
      [out](const messages::agent_event& x) { out->agent_events.push_back(x); },
      [out](const messages::ballot_event& x) { out->ballot_events.push_back(x); },
      [out](const messages::auction_event& x) { out->auction_events.push_back(x); },
      [out](const messages::channel_event& x) { out->channel_events.push_back(x); },
      [](const messages::barrier&) {},
  };
}

actors::agent_actor::behavior_type probe(actors::agent_actor::pointer self,
                                         std::vector<caf::message>* inbox) {
  auto keep = [self, inbox] {
    inbox->push_back(self->current_mailbox_element()->copy_content_to_message());
  };
  return {
      [keep](const messages::initiate_negotiation&) { keep(); },
      [keep](const messages::negotiation_opened&) { keep(); },
      [keep](const messages::problem_event&) { keep(); },
      [keep](const messages::agent_proposal&, const messages::answer_terms&) {
        keep();
      },
      [keep](const messages::agent_counter&, const messages::answer_terms&) { keep(); },
      [keep](const messages::agent_accept&) { keep(); },
      [keep](const messages::agent_reject&) { keep(); },
      [keep](const messages::negotiation_event&) { keep(); },
      [](const messages::transcript_entry&) {},
      [keep](const messages::negotiation_trigger&) { keep(); },
      [keep](const messages::set_tools&) { keep(); },
      [keep](const messages::barrier&) { keep(); },
      [keep](const messages::ballot_invite&) { keep(); },
      [keep](const messages::auction_invite&) { keep(); },
      [keep](const messages::cast_vote&) { keep(); },
      [keep](const messages::place_bid&) { keep(); },
  };
}

actors::subscriber_actor::behavior_type listener(actors::subscriber_actor::pointer self,
                                                 std::vector<caf::message>* inbox) {
  auto keep = [self, inbox] {
    inbox->push_back(self->current_mailbox_element()->copy_content_to_message());
  };
  return {
      [keep](const messages::negotiation_event&) { keep(); },
      [keep](const messages::problem_event&) { keep(); },
      [keep](const messages::agent_event&) { keep(); },
      [keep](const messages::ballot_event&) { keep(); },
      [keep](const messages::auction_event&) { keep(); },
      [keep](const messages::channel_event&) { keep(); },
      [keep](const messages::barrier&) { keep(); },
  };
}

actors::channel_member_actor::behavior_type
channel_probe(actors::channel_member_actor::pointer self,
              std::vector<caf::message>* inbox) {
  auto keep = [self, inbox] {
    inbox->push_back(self->current_mailbox_element()->copy_content_to_message());
  };
  return {
      [keep](const messages::demand_offer&) { keep(); },
      [keep](const messages::proposal_review&) { keep(); },
  };
}

actors::channel_reporter_actor::behavior_type
channel_listener(actors::channel_reporter_actor::pointer,
                 std::vector<messages::channel_event>* events) {
  return {
      [events](const messages::channel_event& x) { events->push_back(x); },
  };
}

} // namespace

std::vector<messages::negotiation_event_kind> recorded::kinds() const {
  std::vector<messages::negotiation_event_kind> result;
  for (const auto& x : negotiation_events)
    result.push_back(x.kind);
  return result;
}

std::vector<messages::error_code> recorded::codes() const {
  std::vector<messages::error_code> result;
  for (const auto& x : problems)
    result.push_back(x.code);
  return result;
}

const messages::negotiation_record& recorded::last_record() const {
  return records.at(negotiation_events.back().negotiation_id);
}

actor_fixture::actor_fixture()
    : sys(simulated(cfg)),
      sched(dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())) {
  events = actors::bus::spawn_bus(sys);
  timers = actors::timer::spawn_timer_service(sys);
  negotiations = std::make_shared<actors::negotiation::pool>(sys);
  ballots = std::make_shared<actors::ballot::pool>(sys);
  auctions = std::make_shared<actors::auction::pool>(sys);
  auto rec = sys.spawn(recorder, &seen);
  events.subscribe(messages::topic_set::all(), rec);
  keep(events.bus());
  keep(timers);
  keep(rec);
  run();
}

actor_fixture::~actor_fixture() {
  for (const auto& x : owned_)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  negotiations->clear();
  ballots->stop_all();
  auctions->stop_all();
  run();
}

void actor_fixture::run() {
  sched.run();
}

void actor_fixture::advance(std::chrono::milliseconds d) {
  sched.advance_time(d);
  sched.run();
}

std::int64_t actor_fixture::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             sched.clock().current_time.time_since_epoch())
      .count();
}

actors::subscriber_actor actor_fixture::spawn_listener(std::vector<caf::message>& inbox) {
  auto result = sys.spawn(listener, &inbox);
  keep(result);
  return result;
}

actors::agent_actor actor_fixture::spawn_probe(std::vector<caf::message>& inbox) {
  auto result = sys.spawn(probe, &inbox);
  keep(result);
  return result;
}

actors::channel_member_actor
actor_fixture::spawn_channel_probe(std::vector<caf::message>& inbox) {
  auto result = sys.spawn(channel_probe, &inbox);
  keep(result);
  return result;
}

actors::channel_reporter_actor
actor_fixture::spawn_channel_listener(std::vector<messages::channel_event>& events) {
  auto result = sys.spawn(channel_listener, &events);
  keep(result);
  return result;
}

} // namespace parley::test
