#include "actors/http/llm_client.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include <curl/curl.h>

#include "caf/actor_system.hpp"
#include "caf/event_based_actor.hpp"
#include "caf/stateful_actor.hpp"

#include "actors/common/wall_clock.hpp"
#include "actors/llm/circuit_breaker.hpp"
#include "messages/type_ids.hpp"

namespace parley::actors::http {

namespace {

using call_done_atom = caf::atom_constant<caf::atom("calldone")>;

struct job {
  messages::llm_request request;
  caf::actor reply_to;
};

struct client_state {
  static inline const char* name = "parley.llm_client";
  llm_client_options options;
  std::string url;
  std::deque<job> waiting;
  std::int32_t active = 0;
  llm::circuit_breaker breaker;
  std::optional<wall_clock> clock;
};

using client_actor = caf::stateful_actor<client_state>;

// -- one attempt with libcurl ----------------------------------------------------

struct attempt {
  CURLcode code = CURLE_OK;
  long status = 0;
  std::string body;
  /// retry-after in milliseconds, or -1 when absent.
  std::int64_t retry_after_ms = -1;
};

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
      *static_cast<std::int64_t*>(user) = static_cast<std::int64_t>(seconds * 1000);
  }
  return size * n;
}

attempt perform(const llm_client_options& o, const std::string& url,
                const std::string& body) {
  attempt a;
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    a.code = CURLE_FAILED_INIT;
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
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
  curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                   static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(o.call_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(o.call_timeout_ms));
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &a.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &a.retry_after_ms);
  a.code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &a.status);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return a;
}

/// Runs one call with its retries (in a detached worker: blocking is fine
/// here, on this worker's own thread).
messages::llm_response run_call(const llm_client_options& o, const std::string& url,
                                const messages::llm_request& request) {
  messages::llm_response r;
  r.call_id = request.call_id;
  auto backoff = o.backoff_ms;
  for (std::int32_t attempt_no = 0;; ++attempt_no) {
    auto a = perform(o, url, request.body);
    r.status = static_cast<std::int32_t>(a.status);
    if (a.code != CURLE_OK) {
      r.code = a.code == CURLE_OPERATION_TIMEDOUT
                   ? messages::error_code::llm_timeout
                   : messages::error_code::llm_unavailable;
      r.error = a.code == CURLE_OPERATION_TIMEDOUT
                    ? "timed out after " + std::to_string(o.call_timeout_ms) + " ms"
                    : std::string{"request failed: "} + curl_easy_strerror(a.code);
      return r;
    }
    if (a.status >= 200 && a.status < 300) {
      r.body = std::move(a.body);
      r.code = messages::error_code::none;
      r.error.clear();
      return r;
    }
    r.code = messages::error_code::llm_unavailable;
    r.error = "HTTP " + std::to_string(a.status) + ": " + a.body.substr(0, 200);
    bool retryable = a.status == 429 || a.status >= 500;
    if (!retryable || attempt_no >= o.max_retries)
      return r;
    auto wait = a.retry_after_ms >= 0 ? a.retry_after_ms : backoff;
    if (wait > o.max_retry_after_ms)
      return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(wait));
    backoff *= 2;
  }
}

/// A detached worker: one call, then it quits. The answer goes back through
/// the client, so that the breaker knows the outcome before the caller can
/// send its next request.
void call_worker(caf::event_based_actor* self, job j, llm_client_options options,
                 std::string url, caf::actor client) {
  auto r = run_call(options, url, j.request);
  self->send(client, call_done_atom::value, std::move(r), std::move(j.reply_to));
}

void dispatch(client_actor* self) {
  auto& st = self->state;
  while (st.active < st.options.max_concurrent_calls && !st.waiting.empty()) {
    auto j = std::move(st.waiting.front());
    st.waiting.pop_front();
    ++st.active;
    self->spawn<caf::detached>(call_worker, std::move(j), st.options, st.url,
                               caf::actor_cast<caf::actor>(self));
  }
}

caf::behavior client_behavior(client_actor* self, llm_client_options options) {
  auto& st = self->state;
  st.url = endpoint_url(options);
  st.breaker = llm::circuit_breaker{options.breaker_threshold, options.breaker_open_ms};
  st.options = std::move(options);
  st.clock.emplace(self->system());
  return {
      [self](messages::llm_request& x) {
        auto& st = self->state;
        auto reply_to = caf::actor_cast<caf::actor>(self->current_sender());
        if (!st.breaker.allow(st.clock->now_ms())) {
          self->send(reply_to,
                     messages::llm_response{x.call_id,
                                            0,
                                            {},
                                            messages::error_code::llm_unavailable,
                                            "circuit open"});
          return;
        }
        st.waiting.push_back(job{std::move(x), std::move(reply_to)});
        dispatch(self);
      },
      [self](call_done_atom, messages::llm_response& r, caf::actor& reply_to) {
        auto& st = self->state;
        --st.active;
        if (r.code == messages::error_code::none)
          st.breaker.on_success();
        else
          st.breaker.on_failure(st.clock->now_ms());
        self->send(reply_to, std::move(r));
        dispatch(self);
      },
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

caf::actor spawn_llm_client(caf::actor_system& sys, llm_client_options options) {
  static std::once_flag curl_ready;
  std::call_once(curl_ready, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  return sys.spawn(client_behavior, std::move(options));
}

} // namespace parley::actors::http
