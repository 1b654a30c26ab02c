#include "actors/agent/llm_agent.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/agent/shell.hpp"
#include "actors/common/publish.hpp"
#include "actors/common/wall_clock.hpp"
#include "actors/llm/prompt.hpp"
#include "messages/consensus.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::agent {

namespace {

/// How long a room may take to answer a start request.
constexpr auto start_timeout = std::chrono::seconds(10);

/// What an LLM agent remembers of a negotiation it takes part in (a rule or
/// script agent keeps nothing: each offer comes with its `answer_terms`).
struct memo {
  std::string negotiation_id;
  /// Where its answers go, learned from the offers it gets.
  offer_receiver negotiation;
};

struct llm_agent_state {
  static inline const char* name = "parley.llm_agent";
  std::string id;
  std::unique_ptr<llm_brain> mind;
  llm_client_actor client;
  std::vector<memo> open;
  /// Its start requests not answered yet, by message id.
  std::vector<std::string> starting;
  std::uint64_t sent = 0;
  std::uint64_t call_id = 0;
  std::int32_t max_rounds = 5;
  messages::event_sink events;
  std::optional<wall_clock> clock;
  std::int64_t batch_window_ms = 2000;
  std::vector<llm::transcript_line> batch;
  std::uint64_t batch_generation = 0;
  /// Where analyze_and_propose sends its proposal: the room of the last
  /// trigger and the agent to propose to.
  room_actor trigger_room;
  std::string trigger_responder;
  /// Barriers held until the agent is idle.
  std::vector<messages::barrier> barriers;

  /// Nothing in flight, queued, waiting in a batch or being opened.
  bool idle() const {
    return !mind->busy() && !mind->in_flight() && mind->queued() == 0 &&
           batch.empty() && starting.empty();
  }

  std::string next_message_id() { return id + ":" + std::to_string(++sent); }
};

using llm_agent_pointer = llm_agent_actor::stateful_pointer<llm_agent_state>;

/// Where the memo of `negotiation_id` is in `st.open` (its end if none).
std::vector<memo>::iterator memo_at(llm_agent_state& st,
                                    const std::string& negotiation_id) {
  return std::find_if(st.open.begin(), st.open.end(), [&](const memo& m) {
    return m.negotiation_id == negotiation_id;
  });
}

/// The memo of `negotiation_id`, or null.
memo* find_memo(llm_agent_state& st, const std::string& negotiation_id) {
  auto i = memo_at(st, negotiation_id);
  return i != st.open.end() ? &*i : nullptr;
}

/// Forgets an ended negotiation; an agent that takes part in none keeps no
/// memory for memos.
void forget(llm_agent_state& st, const std::string& negotiation_id) {
  auto i = memo_at(st, negotiation_id);
  if (i == st.open.end())
    return;
  st.open.erase(i);
  if (st.open.empty())
    std::vector<memo>{}.swap(st.open);
}

/// Records an offer the agent got: its sender is where the answers go.
void on_offer(llm_agent_pointer self, const std::string& negotiation_id) {
  auto& st = self->state;
  auto to = caf::actor_cast<offer_receiver>(self->current_sender());
  if (auto* m = find_memo(st, negotiation_id))
    m->negotiation = std::move(to);
  else
    st.open.push_back(memo{negotiation_id, std::move(to)});
}

void publish(llm_agent_pointer self, messages::agent_event x) {
  auto& st = self->state;
  if (!st.events.wants(topic_of(x)))
    return;
  x.agent_id = st.id;
  x.at_ms = st.clock->now_ms();
  auto topic = topic_of(x);
  actors::publish(self, st.events, topic, std::move(x));
}

/// Publishes a warning about this agent.
void warn(llm_agent_pointer self, messages::error_code code, std::string text) {
  auto& st = self->state;
  if (!st.events.wants(messages::topic::warning))
    return;
  actors::publish(self, st.events, messages::topic::warning,
                  messages::problem_event{messages::severity::warning,
                                          code,
                                          std::move(text),
                                          st.clock->now_ms(),
                                          {},
                                          {},
                                          st.id,
                                          {}});
}

void open_negotiation(llm_agent_pointer self, messages::proposal proposal);

/// Sends the model's decision to the negotiation, unless it ended while the
/// model thought; an accept or reject ends the agent's part in it.
void carry_out(llm_agent_pointer self, const std::string& negotiation_id,
               messages::decision& d) {
  auto& st = self->state;
  auto* m = find_memo(st, negotiation_id);
  if (m == nullptr)
    return;
  send_decision(self, m->negotiation, negotiation_id, d);
  if (d.action == messages::reply_action::accept ||
      d.action == messages::reply_action::reject)
    forget(st, negotiation_id);
}

void apply(llm_agent_pointer self, std::vector<llm_output>& outputs) {
  for (auto& o : outputs) {
    messages::agent_event e;
    e.negotiation_id = o.negotiation_id;
    switch (o.what) {
    case llm_output::kind::message:
      e.kind = messages::agent_event_kind::message;
      e.text = o.text;
      publish(self, std::move(e));
      break;
    case llm_output::kind::tool_call:
      e.kind = messages::agent_event_kind::tool_call;
      e.name = o.name;
      e.input = o.input;
      e.text = o.text;
      publish(self, std::move(e));
      break;
    case llm_output::kind::decision:
      e.kind = messages::agent_event_kind::decision;
      e.name = messages::to_string(o.decision.action);
      e.text = o.decision.reason;
      e.fallback = o.fallback;
      if (o.decision.action == messages::reply_action::counter)
        e.input = std::to_string(o.decision.proposal.amount);
      publish(self, std::move(e));
      carry_out(self, o.negotiation_id, o.decision);
      break;
    case llm_output::kind::propose:
      open_negotiation(self, std::move(o.proposal));
      break;
    }
  }
}

/// Starts the next model call if none is in flight and work waits; once
/// idle, passes held barriers on through the bus (behind the agent's events).
void pump(llm_agent_pointer self) {
  auto& st = self->state;
  if (auto body = st.mind->next_call())
    self->send(st.client, messages::llm_request{++st.call_id, std::move(*body)});
  if (st.idle() && !st.barriers.empty()) {
    for (auto& b : st.barriers)
      self->send(st.events.bus(), std::move(b));
    st.barriers.clear();
  }
}

/// Forgets an ended negotiation; its offers still queued are never shown to
/// the model.
void ended(llm_agent_pointer self, const std::string& negotiation_id) {
  forget(self->state, negotiation_id);
  self->state.mind->on_ended(negotiation_id);
}

void offered(llm_agent_pointer self, const std::string& negotiation_id,
             const messages::proposal& incoming, const messages::answer_terms& terms,
             std::string text) {
  auto& st = self->state;
  on_offer(self, negotiation_id);
  st.mind->on_offer(context_of(negotiation_id, incoming, terms, st.max_rounds),
                    std::move(text));
  pump(self);
}

/// Sends a start request and gives the room `start_timeout` to answer.
void start_in(llm_agent_pointer self, const room_actor& room, std::string responder,
              messages::proposal proposal, std::string intent_id,
              std::string message_id) {
  auto id = request_start(self, room, std::move(responder), std::move(proposal),
                          std::move(intent_id), std::move(message_id));
  self->delayed_send(self, start_timeout, messages::start_deadline{std::move(id)});
}

/// Opens a negotiation with the proposal the model built after a trigger.
void open_negotiation(llm_agent_pointer self, messages::proposal proposal) {
  auto& st = self->state;
  if (!st.trigger_room) {
    warn(self, messages::error_code::invalid_request,
         "analyze_and_propose without a trigger: no one to propose to; dropped");
    return;
  }
  start_in(self, st.trigger_room, st.trigger_responder, std::move(proposal), {}, {});
}

llm_agent_actor::behavior_type llm_agent_behavior(llm_agent_pointer self,
                                                  messages::agent_spec spec,
                                                  std::int32_t max_rounds, peers with,
                                                  llm_agent_options options) {
  auto& st = self->state;
  st.id = std::move(spec.id);
  st.mind = std::make_unique<llm_brain>(spec.brain.side, std::move(spec.profile),
                                        std::move(options.brain));
  st.client = std::move(options.client);
  st.max_rounds = max_rounds;
  st.events = std::move(with.events);
  st.sent = with.first_message;
  st.clock.emplace(self->system());
  st.batch_window_ms = options.batch_window_ms;
  return {
      [self](messages::initiate_negotiation& x) {
        start_in(self, x.room, std::move(x.responder), std::move(x.proposal),
                 std::move(x.intent_id), std::move(x.message_id));
      },
      [self](const messages::negotiation_opened& x) {
        if (on_opened(self->state, x))
          pump(self);
      },
      [self](const messages::problem_event& x) {
        if (on_refused(self->state, x))
          pump(self);
      },
      [self](const messages::start_deadline& x) {
        auto& st = self->state;
        if (!drop_start(st, x.message_id))
          return;
        warn(self, messages::error_code::room_not_found,
             "Room did not answer start request " + x.message_id + " within 10 s");
        pump(self);
      },
      [self](const messages::agent_proposal& x, const messages::answer_terms& terms) {
        offered(self, x.negotiation_id, x.proposal, terms, llm::incoming_text(x));
      },
      [self](const messages::agent_counter& x, const messages::answer_terms& terms) {
        offered(self, x.negotiation_id, x.proposal, terms, llm::incoming_text(x));
      },
      [self](const messages::agent_accept& x) {
        ended(self, x.negotiation_id);
        self->state.mind->on_text(llm::incoming_text(x));
        pump(self);
      },
      [self](const messages::agent_reject& x) {
        ended(self, x.negotiation_id);
        self->state.mind->on_text(llm::incoming_text(x));
        pump(self);
      },
      [self](const messages::negotiation_event& x) {
        if (!is_terminal(x))
          return;
        ended(self, x.negotiation_id);
        pump(self);
      },
      [self](const messages::set_tools& x) {
        for (auto& why : self->state.mind->set_tools(x.tools))
          warn(self, messages::error_code::invalid_request,
               "set_tools: " + why + "; left out");
      },
      [self](const messages::transcript_entry& x) {
        auto& st = self->state;
        st.batch.push_back(llm::transcript_line{x.source, x.speaker, x.text});
        self->delayed_send(self, messages::saturating_milliseconds<caf::timespan>(st.batch_window_ms),
                           messages::transcript_flush{++st.batch_generation});
      },
      [self](const messages::transcript_flush& x) {
        auto& st = self->state;
        if (x.generation != st.batch_generation || st.batch.empty())
          return; // a newer entry restarted the window
        st.mind->on_text(llm::transcript_text(st.batch));
        st.batch.clear();
        pump(self);
      },
      [self](messages::barrier& x) {
        self->state.barriers.push_back(std::move(x));
        pump(self);
      },
      [self](const messages::negotiation_trigger& x) {
        auto& st = self->state;
        st.trigger_room = caf::actor_cast<room_actor>(self->current_sender());
        st.trigger_responder = x.responder;
        st.mind->on_text(llm::trigger_text(
            llm::trigger{x.type, x.matched_text, x.confidence}, x.context));
        pump(self);
      },
      [self](const messages::llm_response& x) {
        auto& st = self->state;
        if (x.call_id != st.call_id || !st.mind->in_flight())
          return; // a stale answer
        std::vector<llm_output> outputs;
        if (x.code == messages::error_code::none) {
          outputs = st.mind->on_reply(x.body);
        } else {
          warn(self, x.code, "LLM call failed: " + x.error);
          outputs = st.mind->on_failure();
        }
        apply(self, outputs);
        pump(self);
      },
      // An LLM agent is not (yet) a voter or bidder
      // (docs/protocols/ballots-and-auctions.md); it is only told how to vote or bid.
      [](const messages::ballot_invite&) {},
      [](const messages::auction_invite&) {},
      [self](messages::cast_vote& x) { self->send(x.ballot, std::move(x.vote)); },
      [self](messages::place_bid& x) { self->send(x.auction, std::move(x.bid)); },
  };
}

} // namespace

llm_agent_actor spawn_llm_agent(caf::actor_system& sys, messages::agent_spec spec,
                                std::int32_t max_rounds, peers with,
                                llm_agent_options options) {
  return sys.spawn(llm_agent_behavior, std::move(spec), max_rounds, std::move(with),
                   std::move(options));
}

} // namespace parley::actors::agent
