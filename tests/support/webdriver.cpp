#include "support/webdriver.hpp"

#include <fstream>
#include <thread>

#include <unistd.h>

#include <catch2/catch.hpp>

namespace parley::test {

using nlohmann::json;

namespace {

/// The key under which WebDriver names an element (W3C WebDriver §12.1).
constexpr const char* element_key = "element-6066-11e4-a52e-4f735466cecf";

} // namespace

bool browser_available() {
  return ::access(chromium_binary, X_OK) == 0 &&
         ::access(chromedriver_binary, X_OK) == 0;
}

browser::browser() {
  using namespace std::chrono_literals;
  driver_ = std::make_unique<background_process>(
      std::vector<std::string>{chromedriver_binary, "--port=0"});
  const std::string started = "was started successfully on port ";
  REQUIRE(driver_->wait_for_output(started, 20s));
  auto out = driver_->output();
  auto port = std::stoi(out.substr(out.find(started) + started.size()));
  http_ = std::make_unique<httplib::Client>("127.0.0.1", port);
  http_->set_read_timeout(60, 0);
  auto args = json::array({"--headless=new", "--no-sandbox", "--disable-gpu",
                           "--disable-dev-shm-usage", "--window-size=1400,1000",
                           "--no-first-run", "--disable-extensions"});
  auto session = call(
      "POST", "/session",
      {{"capabilities",
        {{"alwaysMatch",
          {{"browserName", "chrome"},
           {"goog:chromeOptions", {{"binary", chromium_binary}, {"args", args}}}}}}}});
  session_ = session["sessionId"].get<std::string>();
}

browser::~browser() {
  if (!session_.empty() && http_)
    http_->Delete("/session/" + session_);
}

json browser::call(const std::string& method, const std::string& path,
                   const json& body) {
  auto res = method == "GET" ? http_->Get(path)
                             : http_->Post(path, body.dump(), "application/json");
  INFO(method << " " << path);
  REQUIRE(res);
  auto answer = json::parse(res->body, nullptr, false);
  INFO(res->body);
  REQUIRE(!answer.is_discarded());
  REQUIRE(res->status == 200);
  return answer["value"];
}

void browser::open(const std::string& url) {
  call("POST", "/session/" + session_ + "/url", {{"url", url}});
}

std::vector<std::string> browser::find_all(const std::string& css) {
  auto found = call("POST", "/session/" + session_ + "/elements",
                    {{"using", "css selector"}, {"value", css}});
  std::vector<std::string> out;
  for (const auto& x : found)
    out.push_back(x[element_key].get<std::string>());
  return out;
}

void browser::click(const std::string& element) {
  call("POST", "/session/" + session_ + "/element/" + element + "/click");
}

void browser::type(const std::string& element, const std::string& text) {
  call("POST", "/session/" + session_ + "/element/" + element + "/value",
       {{"text", text}});
}

std::string browser::text(const std::string& element) {
  return call("GET", "/session/" + session_ + "/element/" + element + "/text")
      .get<std::string>();
}

json browser::run(const std::string& script, const json& args) {
  return call("POST", "/session/" + session_ + "/execute/sync",
              {{"script", script}, {"args", args}});
}

bool browser::wait_until(const std::string& script, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (run(script) == true)
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void browser::screenshot(const std::string& path) {
  auto png = base64_decode(
      call("GET", "/session/" + session_ + "/screenshot").get<std::string>());
  std::ofstream out{path, std::ios::binary};
  out << png;
  REQUIRE(out.good());
}

std::string base64_decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z')
      return c - 'A';
    if (c >= 'a' && c <= 'z')
      return c - 'a' + 26;
    if (c >= '0' && c <= '9')
      return c - '0' + 52;
    if (c == '+')
      return 62;
    if (c == '/')
      return 63;
    return -1;
  };
  std::string out;
  unsigned bits = 0;
  int count = 0;
  for (char c : text) {
    auto v = value(c);
    if (v < 0)
      continue;
    bits = (bits << 6) | static_cast<unsigned>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<char>((bits >> count) & 0xff));
    }
  }
  return out;
}

} // namespace parley::test
