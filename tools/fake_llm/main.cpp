// A fake LLM provider for tests and demos: answers the Anthropic Messages API
// (POST /v1/messages) and OpenAI chat completions (POST /v1/chat/completions)
// from a script file.
//
//   parley_fake_llm --script FILE [--port N] [--host 127.0.0.1]
//
// It prints "listening on PORT" once ready (port 0 picks a free one).
// The script is a JSON object:
//   {"responses": [R...], "default": R}
// Each request takes the first unused response whose "match" (optional) occurs
// in the request's last message (as JSON text); when none is left, "default"
// answers (500 if absent).
// A response R: {"status": 200, "delay_ms": 0, "retry_after": "1",
//   "repeat": false, "content": [{"type":"text","text":"..."},
//   {"type":"tool_use","id":"t1","name":"evaluate_proposal","input":{...}}],
//   "stop_reason": "tool_use", "raw": "a body sent verbatim",
//   "body_bytes": N (a body of N 'x' bytes, which is not JSON),
//   "cut_after": N (announce the whole body, send its first N bytes, then
//   close the connection)}.
// GET /requests returns every request body received so far, in order, as a
// JSON array; GET /count the number of requests.

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

struct script {
  std::mutex mtx;
  std::vector<json> responses;
  std::vector<bool> used;
  json fallback;
  std::vector<std::string> requests;

  json take(const std::string& body) {
    std::lock_guard<std::mutex> guard{mtx};
    requests.push_back(body);
    auto parsed = json::parse(body, nullptr, false);
    std::string last = body;
    if (!parsed.is_discarded() && parsed.is_object() && parsed.contains("messages") &&
        parsed["messages"].is_array() && !parsed["messages"].empty())
      last = parsed["messages"].back().dump();
    for (std::size_t i = 0; i < responses.size(); ++i) {
      if (used[i])
        continue;
      const auto& r = responses[i];
      if (r.contains("match") &&
          last.find(r["match"].get<std::string>()) == std::string::npos)
        continue;
      if (!r.value("repeat", false))
        used[i] = true;
      return r;
    }
    return fallback;
  }
};

std::string anthropic_body(const json& r) {
  json j = {{"id", "msg_fake"},
            {"type", "message"},
            {"role", "assistant"},
            {"model", "fake"},
            {"content", r.value("content", json::array())},
            {"stop_reason", r.value("stop_reason", "end_turn")},
            {"usage", {{"input_tokens", 1}, {"output_tokens", 1}}}};
  return j.dump();
}

std::string openai_body(const json& r) {
  std::string text;
  json calls = json::array();
  for (const auto& b : r.value("content", json::array())) {
    if (b.value("type", "") == "text")
      text += b.value("text", "");
    else if (b.value("type", "") == "tool_use")
      calls.push_back(
          {{"id", b.value("id", "call")},
           {"type", "function"},
           {"function",
            {{"name", b.value("name", "")},
             {"arguments", b.contains("input") && b["input"].is_string()
                               ? b["input"].get<std::string>()
                               : b.value("input", json::object()).dump()}}}});
  }
  json message = {{"role", "assistant"},
                  {"content", text.empty() ? json() : json(text)}};
  if (!calls.empty())
    message["tool_calls"] = calls;
  auto stop = r.value("stop_reason", "end_turn");
  json j = {{"id", "chatcmpl_fake"},
            {"object", "chat.completion"},
            {"choices",
             {{{"index", 0},
               {"message", message},
               {"finish_reason", stop == "tool_use" ? "tool_calls" : "stop"}}}}};
  return j.dump();
}

/// Keeps the body's length in the headers but sends only its first `n` bytes,
/// then drops the connection (a provider that dies mid-answer).
void cut(httplib::Response& res, std::size_t n) {
  auto body = std::make_shared<std::string>(std::move(res.body));
  auto sent = std::min(n, body->size());
  res.body.clear();
  res.set_content_provider(
      body->size(), "application/json",
      [body, sent](std::size_t offset, std::size_t, httplib::DataSink& sink) {
        if (offset < sent)
          sink.write(body->data() + offset, sent - offset);
        return false; // cancelled: httplib closes the socket
      });
}

void answer(script& s, const httplib::Request& req, httplib::Response& res,
            bool openai) {
  auto r = s.take(req.body);
  if (r.is_null()) {
    res.status = 500;
    res.set_content(R"({"error":"script exhausted"})", "application/json");
    return;
  }
  if (auto d = r.value("delay_ms", 0); d > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(d));
  res.status = r.value("status", 200);
  if (r.contains("retry_after"))
    res.set_header("retry-after", r["retry_after"].is_string()
                                      ? r["retry_after"].get<std::string>()
                                      : r["retry_after"].dump());
  if (r.contains("raw"))
    res.set_content(r["raw"].get<std::string>(), "application/json");
  else if (r.contains("body_bytes"))
    res.set_content(std::string(r["body_bytes"].get<std::size_t>(), 'x'),
                    "application/json");
  else if (res.status >= 200 && res.status < 300)
    res.set_content(openai ? openai_body(r) : anthropic_body(r), "application/json");
  else
    res.set_content(R"({"error":{"type":"fake","message":"scripted failure"}})",
                    "application/json");
  if (r.contains("cut_after"))
    cut(res, r["cut_after"].get<std::size_t>());
}

} // namespace

int main(int argc, char** argv) {
  std::string script_path;
  std::string host = "127.0.0.1";
  int port = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--script")
      script_path = argv[i + 1];
    else if (flag == "--port")
      port = std::atoi(argv[i + 1]);
    else if (flag == "--host")
      host = argv[i + 1];
  }
  if (script_path.empty()) {
    std::cerr << "usage: parley_fake_llm --script FILE [--port N] [--host H]\n";
    return 2;
  }
  std::ifstream in{script_path};
  std::stringstream buf;
  buf << in.rdbuf();
  auto doc = json::parse(buf.str(), nullptr, false);
  if (!in || doc.is_discarded() || !doc.is_object()) {
    std::cerr << script_path << ": not a JSON object\n";
    return 2;
  }
  script s;
  for (const auto& r : doc.value("responses", json::array()))
    s.responses.push_back(r);
  s.used.assign(s.responses.size(), false);
  s.fallback = doc.value("default", json());

  httplib::Server svr;
  // Enough handler threads for a concurrency limit of 64 and slow answers.
  svr.new_task_queue = [] {
    return new httplib::ThreadPool(256);
  };
  svr.set_keep_alive_max_count(1);
  svr.Post("/v1/messages", [&](const httplib::Request& req, httplib::Response& res) {
    answer(s, req, res, false);
  });
  svr.Post("/v1/chat/completions",
           [&](const httplib::Request& req, httplib::Response& res) {
             answer(s, req, res, true);
           });
  svr.Get("/requests", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard<std::mutex> guard{s.mtx};
    json all = json::array();
    for (const auto& body : s.requests) {
      auto j = json::parse(body, nullptr, false);
      all.push_back(j.is_discarded() ? json(body) : j);
    }
    res.set_content(all.dump(), "application/json");
  });
  svr.Get("/count", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard<std::mutex> guard{s.mtx};
    res.set_content(std::to_string(s.requests.size()), "text/plain");
  });
  int bound = port == 0 ? svr.bind_to_any_port(host.c_str()) : port;
  if (port != 0 && !svr.bind_to_port(host.c_str(), port)) {
    std::cerr << "cannot bind " << host << ":" << port << "\n";
    return 1;
  }
  if (bound < 0) {
    std::cerr << "cannot bind " << host << "\n";
    return 1;
  }
  std::printf("listening on %d\n", bound);
  std::fflush(stdout);
  return svr.listen_after_bind() ? 0 : 1;
}
