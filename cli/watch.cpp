#include "cli/watch.hpp"

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "runtime/world.hpp"
#include "service/api_service.hpp"

namespace parley::cli {

namespace {

/// How long a stopping service may take to answer the requests in flight.
constexpr auto stop_grace = std::chrono::milliseconds(1000);

/// Set by a stop signal while the service lingers.
std::atomic<bool> stop_requested{false};

extern "C" void request_stop(int) {
  stop_requested = true;
}

/// A folder of its own under the system's temporary folder.
std::filesystem::path make_temporary_folder() {
  auto pattern =
      (std::filesystem::temp_directory_path() / "parley-watch-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary folder for the run's store: " +
                             std::generic_category().message(errno));
  return pattern;
}

/// Waits until `options.clients` event streams are open on `api`, at most
/// `options.clients_limit`; throws std::runtime_error when they do not come.
void await_clients(const service::api_service& api, const watch_options& options,
                   std::ostream& log) {
  log << "parley: waiting for " << options.clients << " event-stream clients"
      << std::endl;
  constexpr auto poll = std::chrono::milliseconds(20);
  auto until = std::chrono::steady_clock::now() + options.clients_limit;
  while (api.open_streams() < options.clients) {
    if (std::chrono::steady_clock::now() >= until)
      throw std::runtime_error("only " + std::to_string(api.open_streams()) + " of " +
                               std::to_string(options.clients) +
                               " event-stream clients came within " +
                               std::to_string(options.clients_limit.count()) + " s");
    std::this_thread::sleep_for(poll);
  }
  log << "parley: " << options.clients << " event-stream clients are in; starting"
      << std::endl;
}

} // namespace

config::serve_settings with_address(config::serve_settings settings,
                                    const std::string& address) {
  auto colon = address.rfind(':');
  auto port_text = colon == std::string::npos ? address : address.substr(colon + 1);
  if (colon != std::string::npos) {
    if (colon == 0)
      throw std::invalid_argument("--serve " + address + ": the host is empty");
    settings.host = address.substr(0, colon);
  }
  std::size_t used = 0;
  long port = -1;
  try {
    port = std::stol(port_text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != port_text.size() || port < 0 || port > 65535)
    throw std::invalid_argument("--serve " + address +
                                ": expected PORT or HOST:PORT, the port 0..65535");
  settings.port = static_cast<std::int32_t>(port);
  return settings;
}

struct watch::impl {
  std::filesystem::path folder;
  std::optional<service::api_service> api;
  std::chrono::seconds linger;
  std::ostream* log;
};

watch::watch(runtime::world& w, const watch_options& options, std::ostream& log)
    : impl_(std::make_unique<impl>()) {
  impl_->linger = options.linger;
  impl_->log = &log;
  if (options.temporary_store && !w.store()) {
    impl_->folder = make_temporary_folder();
    w.add_store("sqlite:" + (impl_->folder / "run.db").string());
  }
  impl_->api.emplace(w, w.store(), options.settings, options.token);
  auto port = impl_->api->start();
  impl_->api->set_ready();
  log << "parley: serving the run at http://" << options.settings.host << ":" << port
      << "/ (the dashboard, docs/api.md)" << std::endl;
  if (options.clients > 0)
    await_clients(*impl_->api, options, log);
}

watch::~watch() {
  impl_->api.reset();
  if (!impl_->folder.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(impl_->folder, ignored);
  }
}

void watch::linger() {
  if (impl_->linger.count() > 0) {
    // The handlers first: whoever reads the line may signal at once, and the
    // default action would end the process without the graceful stop.
    stop_requested = false;
    auto previous_int = std::signal(SIGINT, request_stop);
    auto previous_term = std::signal(SIGTERM, request_stop);
    *impl_->log << "parley: the run is over; still serving for "
                << impl_->linger.count() << " s (Ctrl-C ends it)" << std::endl;
    constexpr auto poll = std::chrono::milliseconds(100);
    auto until = std::chrono::steady_clock::now() + impl_->linger;
    while (!stop_requested && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(poll);
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
  }
  impl_->api->stop(stop_grace);
}

} // namespace parley::cli
