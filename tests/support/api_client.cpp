#include "support/api_client.hpp"

#include <fstream>
#include <sstream>

#include "support/text.hpp"

namespace parley::test {

using nlohmann::json;

namespace {

std::vector<std::string> segments(const std::string& path) {
  std::vector<std::string> out;
  std::stringstream in{path.substr(0, path.find('?'))};
  std::string part;
  while (std::getline(in, part, '/'))
    if (!part.empty())
      out.push_back(part);
  return out;
}

bool same_route(const std::string& templ, const std::string& path) {
  auto t = segments(templ);
  auto p = segments(path);
  if (t.size() != p.size())
    return false;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i].front() != '{' && t[i] != p[i])
      return false;
  return true;
}

} // namespace

openapi_contract::openapi_contract() {
  std::ifstream in{PARLEY_SOURCE_DIR "/docs/openapi.json"};
  REQUIRE(in);
  doc_ = json::parse(in);
}

const json& openapi_contract::resolve(const json& schema) const {
  if (!schema.contains("$ref"))
    return schema;
  auto ref = schema["$ref"].get<std::string>();
  auto name = ref.substr(ref.rfind('/') + 1);
  return doc_["components"]["schemas"][name];
}

bool openapi_contract::matches(const json& schema, const json& value) const {
  const auto& s = resolve(schema);
  if (s.contains("required"))
    for (const auto& field : s["required"])
      if (!value.is_object() || !value.contains(field.get<std::string>()))
        return false;
  return true;
}

void openapi_contract::check_schema(const json& schema, const json& value,
                                    const std::string& where) const {
  const auto& s = resolve(schema);
  if (s.contains("oneOf")) {
    auto any = false;
    for (const auto& alternative : s["oneOf"])
      any = any || matches(alternative, value);
    INFO(where << ": " << value.dump());
    CHECK(any);
    return;
  }
  if (s.contains("required"))
    for (const auto& field : s["required"]) {
      INFO(where << " lacks required field " << field << ": " << value.dump());
      CHECK((value.is_object() && value.contains(field.get<std::string>())));
    }
  if (s.contains("properties") && value.is_object())
    for (const auto& item : s["properties"].items()) {
      if (!value.contains(item.key()) || value[item.key()].is_null())
        continue;
      const auto& property = item.value();
      const auto& v = value[item.key()];
      if (property.contains("items") && v.is_array()) {
        for (const auto& element : v)
          check_schema(property["items"], element, where + "." + item.key() + "[]");
      } else if (property.contains("$ref")) {
        check_schema(property, v, where + "." + item.key());
      } else if (property.contains("allOf")) {
        check_schema(property["allOf"][0], v, where + "." + item.key());
      }
    }
}

void openapi_contract::check(const std::string& method, const std::string& path,
                             int status, const std::string& body,
                             const std::string& content_type) {
  INFO(method << " " << path << " -> " << status << " " << body);
  auto code = std::to_string(status);
  for (const auto& item : doc_["paths"].items()) {
    if (!same_route(item.key(), path))
      continue;
    auto op = lower(method);
    if (!item.value().contains(op) || !item.value()[op]["responses"].contains(code))
      break;
    const auto& content = item.value()[op]["responses"][code]["content"];
    seen_.insert(method + " " + item.key() + " " + code);
    if (content.contains("text/event-stream")) {
      // An event stream: Server-Sent Events, each frame's data JSON.
      CHECK((body.empty() || body.rfind("id: ", 0) == 0 || body.rfind(": ", 0) == 0));
      return;
    }
    // A documented answer that is not JSON (GET /metrics, the dashboard's
    // files): its content type is a documented one; its body is the route's
    // own test's business.
    if (!content.contains("application/json")) {
      auto documented = false;
      for (const auto& type : content.items())
        documented = documented || content_type.rfind(type.key(), 0) == 0;
      CHECK(documented);
      return;
    }
    auto parsed = json::parse(body, nullptr, false);
    REQUIRE_FALSE(parsed.is_discarded());
    check_schema(content["application/json"]["schema"], parsed, "response");
    return;
  }
  // Not documented for the operation: one of the statuses any request may get.
  auto parsed = json::parse(body, nullptr, false);
  REQUIRE_FALSE(parsed.is_discarded());
  const auto& common = doc_["x-parley-common-responses"];
  REQUIRE(common.contains(code));
  auto listed = false;
  for (const auto& x : common[code])
    listed = listed || parsed["error_code"] == x;
  CHECK(listed);
  check_schema(doc_["components"]["schemas"]["Error"], parsed, "error");
}

std::vector<std::string> openapi_contract::unseen() const {
  std::vector<std::string> result;
  for (const auto& path : doc_["paths"].items())
    for (const auto& op : path.value().items()) {
      if (op.key() == "parameters")
        continue;
      for (const auto& status : op.value()["responses"].items()) {
        auto method = op.key();
        for (auto& c : method)
          c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        auto entry = method + " " + path.key() + " " + status.key();
        if (seen_.count(entry) == 0)
          result.push_back(entry);
      }
    }
  return result;
}

serve_process::serve_process(const std::vector<std::string>& extra,
                             const std::vector<std::string>& environment,
                             const std::vector<std::string>& globals)
    : process([&] {
        std::vector<std::string> argv{"/usr/bin/env"};
        argv.insert(argv.end(), environment.begin(), environment.end());
        argv.push_back(PARLEY_BINARY);
        argv.insert(argv.end(), globals.begin(), globals.end());
        argv.insert(argv.end(), {"serve", "--port", "0", "--store", store.path(),
                                 "--create-store"});
        argv.insert(argv.end(), extra.begin(), extra.end());
        return argv;
      }()) {
  port = wait_until_serving(process);
}

int wait_until_serving(const background_process& process) {
  using namespace std::chrono_literals;
  REQUIRE(process.wait_for_output("listening on ", 20s));
  auto out = process.output();
  auto begin = out.find("listening on ") + 13;
  auto colon = out.find(':', begin);
  auto port = std::stoi(out.substr(colon + 1, out.find(' ', colon) - colon - 1));
  INFO(process.output());
  REQUIRE(process.wait_for_output("parley serve: ready", 20s));
  return port;
}

api_client::api_client(int port, openapi_contract& contract, std::string token,
                       const std::string& host)
    : http_(std::make_unique<httplib::Client>(host, port)), contract_(contract) {
  http_->set_keep_alive(true);
  http_->set_connection_timeout(5);
  http_->set_read_timeout(10);
  if (!token.empty())
    headers_.emplace("Authorization", "Bearer " + token);
}

api_client::answer api_client::finish(const std::string& method,
                                      const std::string& path,
                                      const httplib::Result& res) {
  INFO(method << " " << path);
  REQUIRE(res);
  answer a;
  a.status = res->status;
  a.body = json::parse(res->body, nullptr, false);
  a.text = res->body;
  a.content_type = res->get_header_value("Content-Type");
  a.retry_after = res->get_header_value("Retry-After");
  contract_.check(method, path, res->status, res->body, a.content_type);
  return a;
}

api_client::answer api_client::get(const std::string& path) {
  return finish("GET", path, http_->Get(path.c_str(), headers_));
}

api_client::answer api_client::post(const std::string& path, const json& body) {
  return post_raw(path, body.dump());
}

api_client::answer api_client::post_raw(const std::string& path,
                                        const std::string& body) {
  return finish("POST", path,
                http_->Post(path.c_str(), headers_, body, "application/json"));
}

api_client::answer api_client::try_post(const std::string& path, const json& body) {
  auto res = http_->Post(path.c_str(), headers_, body.dump(), "application/json");
  if (!res)
    return {};
  return finish("POST", path, res);
}

api_client::answer api_client::del(const std::string& path) {
  return finish("DELETE", path, http_->Delete(path.c_str(), headers_));
}

std::string open_negotiation(api_client& api, const std::string& a,
                             const std::string& b) {
  REQUIRE(api.post("/api/v1/agents", external(a)).status == 201);
  REQUIRE(api.post("/api/v1/agents", external(b)).status == 201);
  auto created =
      api.post("/api/v1/negotiations",
               {{"initiator", a}, {"responder", b}, {"proposal", proposal(10000)}});
  REQUIRE(created.status == 201);
  return created.body["id"].get<std::string>();
}

std::string negotiation_messages(const std::string& id) {
  return "/api/v1/negotiations/" + id + "/messages";
}

nlohmann::json external(const std::string& id) {
  return {{"id", id}, {"brain", {{"kind", "external"}}}};
}

nlohmann::json proposal(std::int64_t amount) {
  return {{"amount", amount}, {"currency", "GBP"}, {"description", "logo design"}};
}

nlohmann::json counter(const std::string& message_id, const std::string& from,
                       std::int64_t amount) {
  return {{"message_id", message_id},
          {"from", from},
          {"action", "counter"},
          {"proposal", proposal(amount)},
          {"reason", "meet me halfway"}};
}

nlohmann::json simple_move(const std::string& message_id, const std::string& from,
                           const std::string& action) {
  return {{"message_id", message_id}, {"from", from}, {"action", action}};
}

} // namespace parley::test
