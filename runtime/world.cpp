#include "runtime/world.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/scoped_actor.hpp"
#include "caf/send.hpp"

#include "actors/agent/actor.hpp"
#include "actors/agent/brain.hpp"
#include "actors/agent/external_agent.hpp"
#include "actors/agent/llm_agent.hpp"
#include "actors/audit/actor.hpp"
#include "actors/bus/actor.hpp"
#include "actors/channel/llm_member.hpp"
#include "actors/channel/member.hpp"
#include "actors/coordinator/actor.hpp"
#include "actors/llm/client.hpp"
#include "actors/llm/text_reply.hpp"
#include "actors/metrics/actor.hpp"
#include "actors/store/actor.hpp"
#include "actors/timer/actor.hpp"
#include "messages/type_ids.hpp"

namespace parley::runtime {

namespace {

/// The model of `llm` through `client`, for callers of the channel protocol's JSON
/// prompts (channel members, the coordinator).
actors::llm::prompt_model prompt_model_of(const config::llm_settings& llm,
                                          actors::llm_client_actor client) {
  actors::llm::prompt_model x;
  x.client = std::move(client);
  actors::llm::from_string(llm.provider, x.provider);
  x.model = llm.model;
  x.max_tokens = llm.max_tokens;
  return x;
}

} // namespace

world::world(caf::actor_system& sys, config::settings settings,
             const std::vector<std::string>& remotes, std::uint64_t coordinator_seed,
             std::shared_ptr<actors::metrics::node_metrics> metrics)
    : sys_(sys), settings_(std::move(settings)), events_(actors::bus::spawn_bus(sys)),
      timers_(actors::timer::spawn_timer_service(sys)),
      negotiations_(std::make_shared<actors::negotiation::pool>(sys)),
      ballots_(std::make_shared<actors::ballot::pool>(sys)),
      auctions_(std::make_shared<actors::auction::pool>(sys)),
      metrics_(std::move(metrics)) {
  if (metrics_)
    metrics_actor_ = actors::metrics::spawn_metrics(sys_, events_, metrics_);
  nodes_ = std::make_unique<cluster::room_placement>(sys_, remotes, events_, timers_, negotiations_);
  actors::llm::prompt_model model;
  if (settings_.channel.coordinator_brain == "llm")
    model = prompt_model_of(settings_.llm, llm_client({}, {}));
  coordinator_ = actors::coordinator::spawn_coordinator(
      sys_, settings_.channel, coordinator_seed, {events_, timers_}, std::move(model));
  if (!settings_.audit.path.empty()) {
    auto file = std::make_shared<std::ofstream>(settings_.audit.path, std::ios::app);
    if (!*file)
      throw std::runtime_error("cannot write the audit log " + settings_.audit.path);
    audit_ = actors::audit::spawn_audit_log(sys_, events_, std::move(file));
  }
}

world::~world() {
  stop();
}

actors::agent_actor world::add_agent(messages::agent_spec spec) {
  if (spec.brain.kind == messages::brain_kind::llm)
    return add_llm_agent(std::move(spec));
  auto agent = spec.brain.kind == messages::brain_kind::external
                   ? actors::agent::spawn_external_agent(sys_, std::move(spec),
                                                         actors::agent::peers{events_, first_message_})
                   : actors::agent::spawn_agent(sys_, std::move(spec),
                                                settings_.negotiation.max_rounds,
                                                actors::agent::peers{events_, first_message_});
  return keep(std::move(agent));
}

actors::agent_actor world::add_agent(std::string id,
                                     std::unique_ptr<actors::agent::brain> mind) {
  return keep(actors::agent::spawn_agent(sys_, std::move(id), std::move(mind),
                                         settings_.negotiation.max_rounds,
                                         actors::agent::peers{events_, first_message_}));
}

actors::agent_actor world::keep(actors::agent_actor agent) {
  std::lock_guard<std::mutex> guard{mtx_};
  agents_.push_back(agent);
  return agent;
}

actors::channel_member_actor
world::add_channel_member(messages::channel_member_spec spec) {
  auto profile = spec.profile;
  actors::channel_member_actor member;
  if (spec.brain == messages::member_brain_kind::llm) {
    actors::channel::llm_member_options options;
    options.model = prompt_model_of(settings_.llm, llm_client({}, {}));
    // Half the channel's shorter collection timeout: a call the client has
    // not answered by then gets the fallback while the channel still waits.
    options.answer_timeout_ms = std::min(settings_.channel.response_timeout_ms,
                                         settings_.channel.feedback_timeout_ms) /
                                2;
    member = actors::channel::spawn_llm_member(sys_, std::move(spec), events_,
                                               std::move(options));
  } else {
    member = actors::channel::spawn_member(sys_, std::move(spec), events_);
  }
  caf::anon_send(coordinator_, messages::register_member{std::move(profile), member});
  std::lock_guard<std::mutex> guard{mtx_};
  channel_members_.push_back(member);
  return member;
}

actors::channel_actor world::open_channel(actors::channel::channel_spec spec,
                                          actors::channel::peers with) {
  if (!with.timers)
    with.timers = timers_;
  if (!with.events)
    with.events = events_;
  return actors::channel::spawn_channel(sys_, std::move(spec), std::move(with));
}

actors::store_actor
world::add_store(const std::string& url, bool settles,
                 std::shared_ptr<const actors::store::member_fence> fence) {
  actors::store::store_url parsed;
  if (auto why = actors::store::parse_store_url(url, parsed); !why.empty())
    throw actors::store::store_error(why);
  parsed.synchronous_full = settings_.store.synchronous == "full";
  actors::store::store_options options;
  if (settles)
    options.settle = std::chrono::milliseconds{settings_.store.settle_ms};
  if (metrics_)
    options.metrics = {metrics_, &metrics_->store};
  options.fence = std::move(fence);
  auto store = actors::store::spawn_store(sys_, parsed, events_, options);
  // Demands are kept there too (messages/handles/coordinator.hpp).
  caf::anon_send(coordinator_, caf::put_atom::value, store);
  std::lock_guard<std::mutex> guard{mtx_};
  store_ = store;
  return store;
}

std::string world::flush_store(std::chrono::milliseconds limit) {
  if (!store_)
    return {};
  std::string failure;
  caf::scoped_actor self{sys_};
  self->request(store_, limit, messages::flush_atom::value)
      .receive([](std::int64_t) {},
               [&](caf::error& err) { failure = sys_.render(err); });
  return failure;
}

std::vector<actors::agent_actor> world::llm_agents() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return llm_agents_;
}

/// The key comes from ANTHROPIC_API_KEY (Anthropic) or OPENAI_API_KEY
/// (OpenAI-compatible servers, optional) and goes nowhere but the client.
actors::llm_client_actor world::llm_client(const std::string& provider,
                                           const std::string& endpoint) {
  const auto& llm = settings_.llm;
  actors::llm::llm_client_options o;
  actors::llm::from_string(provider.empty() ? llm.provider : provider, o.provider);
  o.base_url = endpoint.empty() ? llm.base_url : endpoint;
  o.max_concurrent_calls = llm.max_concurrent_calls;
  o.call_timeout_ms = llm.call_timeout_ms;
  o.max_retries = llm.max_retries;
  o.breaker_threshold = llm.breaker_threshold;
  o.breaker_open_ms = llm.breaker_open_ms;
  if (metrics_)
    o.metrics = {metrics_, &metrics_->llm};
  auto key = actors::llm::to_string(o.provider) + " " + o.base_url;
  std::lock_guard<std::mutex> guard{mtx_};
  auto& client = llm_clients_[key];
  if (!client) {
    const char* api_key = std::getenv(
        o.provider == actors::llm::provider_kind::anthropic ? "ANTHROPIC_API_KEY"
                                                            : "OPENAI_API_KEY");
    o.api_key = api_key != nullptr ? api_key : "";
    client = actors::llm::spawn_llm_client(sys_, std::move(o));
  }
  return client;
}

actors::agent_actor world::add_llm_agent(messages::agent_spec spec) {
  const auto& llm = settings_.llm;
  const auto& brain = spec.brain;
  actors::agent::llm_agent_options options;
  options.client = llm_client(brain.provider, brain.endpoint);
  actors::llm::from_string(brain.provider.empty() ? llm.provider : brain.provider,
                           options.brain.provider);
  options.brain.model = brain.model.empty() ? llm.model : brain.model;
  options.brain.max_tokens = llm.max_tokens;
  options.brain.max_bad_turns = llm.max_bad_turns;
  options.batch_window_ms = llm.batch_window_ms;
  auto agent = actors::agent::spawn_llm_agent(sys_, std::move(spec),
                                              settings_.negotiation.max_rounds,
                                              actors::agent::peers{events_, first_message_}, options);
  std::lock_guard<std::mutex> guard{mtx_};
  agents_.push_back(agent);
  llm_agents_.push_back(agent);
  return agent;
}

messages::room_spec world::room_spec(std::string id,
                                     std::vector<messages::room_member> members,
                                     std::uint64_t seed) const {
  messages::room_spec spec;
  spec.id = std::move(id);
  spec.members = std::move(members);
  spec.settings = settings_.negotiation;
  spec.history_limit = settings_.room.history_limit;
  spec.seed = seed;
  spec.events = events_;
  return spec;
}

std::vector<actors::room_actor> world::add_rooms(std::vector<messages::room_spec> specs) {
  auto built = nodes_->spawn_rooms(std::move(specs));
  std::lock_guard<std::mutex> guard{mtx_};
  rooms_.insert(rooms_.end(), built.begin(), built.end());
  return built;
}

actors::ballot_actor world::open_ballot(messages::ballot_spec spec,
                                       messages::consensus_peers with) {
  return actors::ballot::open(*ballots_, std::move(spec), std::move(with), timers_);
}

actors::auction_actor world::open_auction(messages::auction_spec spec,
                                         messages::consensus_peers with) {
  return actors::auction::open(*auctions_, std::move(spec), std::move(with), timers_);
}

void world::stop() {
  std::lock_guard<std::mutex> guard{mtx_};
  if (stopped_)
    return;
  stopped_ = true;
  if (audit_)
    caf::anon_send(audit_, messages::done_atom::value);
  if (store_)
    caf::anon_send(store_, messages::done_atom::value);
  for (const auto& x : agents_)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  for (const auto& x : rooms_)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  for (const auto& x : channel_members_)
    caf::anon_send_exit(x, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(coordinator_, caf::exit_reason::user_shutdown);
  for (const auto& entry : llm_clients_)
    caf::anon_send_exit(entry.second, caf::exit_reason::user_shutdown);
  if (metrics_actor_)
    caf::anon_send_exit(metrics_actor_, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(events_.bus(), caf::exit_reason::user_shutdown);
  caf::anon_send_exit(timers_, caf::exit_reason::user_shutdown);
  negotiations_->clear();
  ballots_->stop_all();
  auctions_->stop_all();
  nodes_->sync();
  nodes_.reset();
}

} // namespace parley::runtime
