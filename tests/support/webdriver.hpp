#pragma once

// A headless Chromium driven over the W3C WebDriver protocol (JSON over
// HTTP to chromedriver, with the tests' cpp-httplib): what the dashboard's
// browser test needs, and no npm dependency.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "support/process.hpp"

namespace parley::test {

/// Where Debian's chromium and chromium-driver put their binaries.
inline constexpr const char* chromium_binary = "/usr/bin/chromium";
inline constexpr const char* chromedriver_binary = "/usr/bin/chromedriver";

/// Why a browser test did not run (scripts/install-deps.sh installs both).
inline constexpr const char* browser_missing =
    "SKIPPED: the browser tests need Debian's chromium and chromium-driver "
    "(/usr/bin/chromium, /usr/bin/chromedriver): run scripts/install-deps.sh";

/// Whether chromium and chromedriver are installed.
bool browser_available();

/// One headless Chromium session of its own chromedriver (on a free
/// loopback port), ended and stopped when this goes away. Every call that
/// the driver refuses fails the test (REQUIRE) with the driver's message.
class browser {
public:
  browser();
  ~browser();

  browser(const browser&) = delete;
  browser& operator=(const browser&) = delete;

  /// Opens `url` and waits for the page's load event.
  void open(const std::string& url);

  /// The WebDriver ids of the elements `css` selects, in document order.
  std::vector<std::string> find_all(const std::string& css);

  /// Clicks the element (as a user would: scrolled into view, by the
  /// browser's input events).
  void click(const std::string& element);

  /// Types `text` into the element.
  void type(const std::string& element, const std::string& text);

  /// The rendered text of the element.
  std::string text(const std::string& element);

  /// Runs `script` (a function body; `arguments` are `args`) in the page
  /// and returns what it returns.
  nlohmann::json run(const std::string& script,
                     const nlohmann::json& args = nlohmann::json::array());

  /// Runs `script` again (every 100 ms, at most `limit`) until it returns
  /// true; returns whether it did.
  bool wait_until(const std::string& script, std::chrono::milliseconds limit);

  /// A PNG of the window, written to `path`.
  void screenshot(const std::string& path);

private:
  nlohmann::json call(const std::string& method, const std::string& path,
                      const nlohmann::json& body = nlohmann::json::object());

  std::unique_ptr<background_process> driver_;
  std::unique_ptr<httplib::Client> http_;
  std::string session_;
};

/// Decodes standard base64 (what WebDriver's screenshots are).
std::string base64_decode(const std::string& text);

} // namespace parley::test
