#include "actors/llm/client.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>

#include <curl/curl.h>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/typed_event_based_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "actors/llm/circuit_breaker.hpp"
#include "actors/llm/client_rules.hpp"
#include "messages/time_limits.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::llm {

namespace {

/// A call from its arrival until its answer.
struct call {
  messages::llm_request request;
  llm_caller_actor reply_to;
  /// The attempt under way or next: 0 for the first.
  std::int32_t attempt_no = 0;
  /// When the call arrived, on the client's clock.
  std::int64_t arrived_ms = 0;
};

using call_map = std::unordered_map<std::uint64_t, call>;

struct client_state {
  static inline const char* name = "parley.llm_client";
  llm_client_options options;
  std::string url;
  std::deque<call> waiting;
  /// Calls in progress (attempting or waiting for a retry) by ticket: the
  /// callers' call_ids may collide, so attempts carry the ticket instead.
  call_map in_progress;
  std::uint64_t last_ticket = 0;
  llm::circuit_breaker breaker;
  std::optional<wall_clock> clock;
};

using client_pointer = llm_client_actor::stateful_pointer<client_state>;

// -- metrics ---------------------------------------------------------------------

/// Moves this client from the breaker state `before` to the current one in
/// the metrics' count of breakers per state.
void note_breaker(client_state& st, llm::circuit_breaker::state before) {
  auto after = st.breaker.current();
  if (!st.options.metrics || after == before)
    return;
  st.options.metrics->breakers[static_cast<std::size_t>(before)].add(-1);
  st.options.metrics->breakers[static_cast<std::size_t>(after)].add(1);
}

/// Records a call's answer `code`, `latency_ms` after it arrived.
void note_answer(client_state& st, messages::error_code code, std::int64_t latency_ms) {
  auto* m = st.options.metrics.get();
  if (m == nullptr)
    return;
  m->calls.add();
  if (code == messages::error_code::llm_timeout)
    m->timeouts.add();
  else if (code != messages::error_code::none)
    m->unavailable.add();
  m->latency_ms.observe(latency_ms);
}

// -- one attempt with libcurl ----------------------------------------------------

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t n, void* user) {
  std::string line(data, size * n);
  std::string lower = line;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower.rfind("retry-after:", 0) == 0) {
    auto value = line.substr(12);
    char* end = nullptr;
    auto seconds = std::strtod(value.c_str(), &end);
    if (end != value.c_str() && seconds >= 0 && seconds < 1e6)
      *static_cast<caf::optional<std::int64_t>*>(user) =
          static_cast<std::int64_t>(seconds * 1000);
  }
  return size * n;
}

/// Records a request that got no answer: timed out, or failed otherwise.
void record_failure(messages::llm_attempt& a, CURLcode code) {
  if (code == CURLE_OK)
    return;
  a.code = code == CURLE_OPERATION_TIMEDOUT ? messages::error_code::llm_timeout
                                            : messages::error_code::llm_unavailable;
  a.error = curl_easy_strerror(code);
}

messages::llm_attempt perform(const llm_client_options& o, const std::string& url,
                              const messages::llm_request& request) {
  messages::llm_attempt a;
  a.call_id = request.call_id;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    record_failure(a, CURLE_FAILED_INIT);
    return a;
  }
  curl_slist* headers = nullptr;
  headers = curl_slist_append(headers, "content-type: application/json");
  std::string auth;
  if (o.provider == llm::provider_kind::anthropic) {
    headers = curl_slist_append(headers, "anthropic-version: 2023-06-01");
    auth = "x-api-key: " + o.api_key;
  } else if (!o.api_key.empty()) {
    auth = "authorization: Bearer " + o.api_key;
  }
  if (!auth.empty())
    headers = curl_slist_append(headers, auth.c_str());
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(o.call_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(o.call_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &a.retry_after_ms);
  record_failure(a, curl_easy_perform(curl));
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  a.status = static_cast<std::int32_t>(status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return a;
}

/// A detached worker: one attempt (blocking is fine here, on this worker's
/// own thread), reported to the client; then it quits.
void attempt_worker(caf::event_based_actor* self, messages::llm_request request,
                    llm_client_options options, std::string url,
                    llm_client_actor client) {
  self->send(client, perform(options, url, request));
}

// -- the client ------------------------------------------------------------------

/// Starts a call's attempt: on the injected performer, or in a new libcurl
/// worker.
void start_attempt(client_pointer self, std::uint64_t ticket, const call& c) {
  auto& st = self->state;
  messages::llm_request attempt{ticket, c.request.body};
  if (st.options.performer)
    self->send(st.options.performer, std::move(attempt));
  else
    self->spawn<caf::detached>(attempt_worker, std::move(attempt), st.options, st.url,
                               caf::actor_cast<llm_client_actor>(self));
}

void dispatch(client_pointer self) {
  auto& st = self->state;
  while (static_cast<std::int32_t>(st.in_progress.size()) <
             st.options.max_concurrent_calls &&
         !st.waiting.empty()) {
    auto ticket = ++st.last_ticket;
    auto& c = st.in_progress[ticket] = std::move(st.waiting.front());
    st.waiting.pop_front();
    start_attempt(self, ticket, c);
  }
}

/// Answers the caller. The breaker learns the outcome first, so that it is
/// up to date before the caller can send its next request.
void finish(client_pointer self, call_map::iterator i, messages::llm_response r) {
  auto& st = self->state;
  auto c = std::move(i->second);
  st.in_progress.erase(i);
  auto before = st.breaker.current();
  auto now = st.clock->now_ms();
  if (r.code == messages::error_code::none)
    st.breaker.on_success();
  else
    st.breaker.on_failure(now);
  note_breaker(st, before);
  note_answer(st, r.code, now - c.arrived_ms);
  r.call_id = c.request.call_id;
  self->send(c.reply_to, std::move(r));
  dispatch(self);
}

retry_policy policy_of(const llm_client_options& o) {
  return {o.max_retries, o.backoff_ms, o.max_retry_after_ms, o.call_timeout_ms};
}

/// Answers the call, or waits for its retry as a delayed message to self.
void on_attempt(client_pointer self, const messages::llm_attempt& attempt) {
  auto& st = self->state;
  auto i = st.in_progress.find(attempt.call_id);
  if (i == st.in_progress.end())
    return;
  auto step = after_attempt(policy_of(st.options), i->second.attempt_no, attempt);
  if (step.response)
    finish(self, i, std::move(*step.response));
  else
    self->delayed_send(self, messages::saturating_milliseconds<caf::timespan>(step.retry_in_ms),
                       llm_retry_atom::value, attempt.call_id);
}

void on_retry(client_pointer self, std::uint64_t ticket) {
  auto& st = self->state;
  auto i = st.in_progress.find(ticket);
  if (i == st.in_progress.end())
    return;
  ++i->second.attempt_no;
  start_attempt(self, ticket, i->second);
}

llm_client_actor::behavior_type client_behavior(client_pointer self,
                                                llm_client_options options) {
  auto& st = self->state;
  st.url = endpoint_url(options);
  st.breaker = llm::circuit_breaker{options.breaker_threshold, options.breaker_open_ms};
  st.options = std::move(options);
  st.clock.emplace(self->system());
  if (st.options.metrics)
    st.options.metrics->breakers[static_cast<std::size_t>(st.breaker.current())].add(1);
  return {
      [self](messages::llm_request& x) {
        auto& st = self->state;
        auto reply_to = caf::actor_cast<llm_caller_actor>(self->current_sender());
        auto before = st.breaker.current();
        auto now = st.clock->now_ms();
        auto allowed = st.breaker.allow(now);
        note_breaker(st, before);
        if (!allowed) {
          if (auto* m = st.options.metrics.get()) {
            m->calls.add();
            m->unavailable.add();
            m->circuit_rejected.add();
          }
          self->send(reply_to,
                     messages::llm_response{x.call_id,
                                            0,
                                            {},
                                            messages::error_code::llm_unavailable,
                                            "circuit open"});
          return;
        }
        st.waiting.push_back(call{std::move(x), std::move(reply_to), 0, now});
        dispatch(self);
      },
      [self](const messages::llm_attempt& x) { on_attempt(self, x); },
      [self](llm_retry_atom, std::uint64_t ticket) { on_retry(self, ticket); },
  };
}

} // namespace

std::string endpoint_url(const llm_client_options& options) {
  auto base = options.base_url;
  while (!base.empty() && base.back() == '/')
    base.pop_back();
  if (options.provider == llm::provider_kind::anthropic)
    return base + "/v1/messages";
  if (base.size() >= 3 && base.compare(base.size() - 3, 3, "/v1") == 0)
    return base + "/chat/completions";
  return base + "/v1/chat/completions";
}

llm_client_actor spawn_llm_client(caf::actor_system& sys, llm_client_options options) {
  static std::once_flag curl_ready;
  std::call_once(curl_ready, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  return sys.spawn(client_behavior, std::move(options));
}

} // namespace parley::actors::llm
