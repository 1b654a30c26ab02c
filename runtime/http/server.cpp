#include "runtime/http/server.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "runtime/http/errors.hpp"

namespace parley::runtime::http {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

/// Compares without stopping at the first difference (a token check must
/// not tell by its timing how much of a guess was right).
bool same_secret(beast::string_view given, const std::string& expected) {
  if (given.size() != expected.size())
    return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < given.size(); ++i)
    diff |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return diff == 0;
}

bool is_public_path(beast::string_view target) {
  auto path = target.substr(0, target.find('?'));
  return path == "/healthz" || path == "/readyz";
}

} // namespace

struct server::impl {
  impl(options o, handler_function h) : opts(std::move(o)), handler(std::move(h)) {
    ioc.emplace(static_cast<int>(opts.io_threads));
    acceptor.emplace(net::make_strand(*ioc));
  }

  options opts;
  handler_function handler;
  /// Reset by `stop`, which destroys every connection with them.
  std::optional<net::io_context> ioc;
  std::optional<tcp::acceptor> acceptor;
  /// Keeps the I/O threads running while every connection waits for an
  /// answer and the acceptor is closed (during `stop`'s grace).
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
  std::vector<std::thread> threads;
  /// Guards `open`: an answer that comes after `stop` is dropped, not posted
  /// to a destroyed io_context.
  std::mutex post_mtx;
  bool open = true;
  /// Connections waiting for the handler's answer, which holds them only
  /// weakly: `stop` lets go of them while their io_context still exists.
  std::mutex awaiting_mtx;
  std::unordered_map<const void*, std::shared_ptr<void>> awaiting;

  void hold(std::shared_ptr<void> x) {
    std::lock_guard<std::mutex> guard{awaiting_mtx};
    auto key = x.get();
    awaiting.emplace(key, std::move(x));
  }

  void release(const void* x) {
    std::shared_ptr<void> last;
    std::lock_guard<std::mutex> guard{awaiting_mtx};
    auto i = awaiting.find(x);
    if (i != awaiting.end()) {
      last = std::move(i->second);
      awaiting.erase(i);
    }
  }
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> in_flight{0};
  std::mutex mtx;
  std::condition_variable answered;

  void accept();

  /// Runs `f` on `executor` unless the server stopped.
  template <class Executor, class F> void post(const Executor& executor, F&& f) {
    std::lock_guard<std::mutex> guard{post_mtx};
    if (open)
      net::post(executor, std::forward<F>(f));
  }

  /// Runs `f` on the strand of connection `weak` unless it or the server is
  /// gone.
  template <class Session, class F>
  void post_to(const std::weak_ptr<Session>& weak, F&& f) {
    std::lock_guard<std::mutex> guard{post_mtx};
    if (!open)
      return;
    if (auto self = weak.lock())
      net::post(self->executor(), std::forward<F>(f));
  }

  void request_done() {
    if (--in_flight == 0) {
      std::lock_guard<std::mutex> guard{mtx};
      answered.notify_all();
    }
  }
};

namespace {

/// One connection: reads a request, hands it over, writes the answer, and
/// reads the next one while the client keeps the connection alive.
class session : public std::enable_shared_from_this<session> {
public:
  session(tcp::socket socket, server::impl* srv)
      : stream_(std::move(socket)), srv_(srv) {}

  auto executor() { return stream_.get_executor(); }

  void run() {
    net::dispatch(stream_.get_executor(),
                  [self = shared_from_this()] { self->read(); });
  }

private:
  void read() {
    if (srv_->stopping) {
      close();
      return;
    }
    parser_.emplace();
    parser_->body_limit(srv_->opts.max_body_bytes);
    stream_.expires_after(srv_->opts.idle_timeout);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->on_read(ec);
                      });
  }

  void on_read(beast::error_code ec) {
    if (ec == bhttp::error::body_limit) {
      keep_alive_ = false;
      begin_request();
      write(error_response(messages::error_code::request_too_large,
                           "the request body is larger than " +
                               std::to_string(srv_->opts.max_body_bytes) + " bytes",
                           {{"max_body_bytes", srv_->opts.max_body_bytes}}));
      return;
    }
    if (ec == bhttp::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset ||
        ec == net::error::eof) {
      close();
      return;
    }
    if (ec) {
      keep_alive_ = false;
      begin_request();
      write(error_response(messages::error_code::invalid_request,
                           "malformed HTTP request: " + ec.message()));
      return;
    }
    auto& req = parser_->get();
    keep_alive_ = req.keep_alive();
    version_ = req.version();
    begin_request();
    if (!srv_->opts.token.empty() && !is_public_path(req.target())) {
      auto given = req[bhttp::field::authorization];
      const beast::string_view scheme = "Bearer ";
      if (given.substr(0, scheme.size()) != scheme ||
          !same_secret(given.substr(scheme.size()), srv_->opts.token)) {
        write(
            error_response(messages::error_code::unauthorized,
                           "a bearer token is required: Authorization: Bearer TOKEN"));
        return;
      }
    }
    request r{std::string{req.method_string()}, std::string{req.target()},
              std::move(req.body())};
    srv_->hold(shared_from_this());
    std::weak_ptr<session> weak = shared_from_this();
    auto* srv = srv_;
    srv_->handler(std::move(r), [weak, srv](response x) {
      srv->post_to(weak, [weak, x = std::move(x)]() mutable {
        if (auto self = weak.lock())
          self->write(std::move(x));
      });
    });
  }

  void begin_request() { ++srv_->in_flight; }

  void write(response x) {
    srv_->release(this);
    res_ = {};
    res_.version(version_);
    res_.result(x.status);
    res_.set(bhttp::field::server, "parley");
    res_.set(bhttp::field::content_type, x.content_type);
    if (x.retry_after_s > 0)
      res_.set(bhttp::field::retry_after, std::to_string(x.retry_after_s));
    if (x.status == 401)
      res_.set(bhttp::field::www_authenticate, "Bearer");
    res_.body() = std::move(x.body);
    res_.keep_alive(keep_alive_ && !srv_->stopping);
    res_.prepare_payload();
    stream_.expires_after(srv_->opts.idle_timeout);
    bhttp::async_write(stream_, res_,
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                         self->on_write(ec);
                       });
  }

  void on_write(beast::error_code ec) {
    auto again = !ec && res_.keep_alive();
    srv_->request_done();
    if (again)
      read();
    else
      close();
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.close();
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  bhttp::response<bhttp::string_body> res_;
  server::impl* srv_;
  bool keep_alive_ = true;
  unsigned version_ = 11;
};

} // namespace

void server::impl::accept() {
  acceptor->async_accept(net::make_strand(*ioc),
                         [this](beast::error_code ec, tcp::socket socket) {
                           if (!acceptor->is_open())
                             return;
                           if (!ec)
                             std::make_shared<session>(std::move(socket), this)->run();
                           accept();
                         });
}

server::server(options opts, handler_function handler)
    : impl_(std::make_unique<impl>(std::move(opts), std::move(handler))) {}

server::~server() {
  if (!impl_->threads.empty())
    stop(std::chrono::milliseconds{0});
  // Whatever answers the handler still holds goes before the server does.
  impl_->handler = nullptr;
}

std::uint16_t server::start() {
  auto& x = *impl_;
  beast::error_code ec;
  auto address = net::ip::make_address(x.opts.host, ec);
  if (ec)
    throw std::runtime_error("cannot listen on \"" + x.opts.host +
                             "\": not an IP address (" + ec.message() + ")");
  tcp::endpoint endpoint{address, x.opts.port};
  auto where = x.opts.host + ":" + std::to_string(x.opts.port);
  auto& acceptor = *x.acceptor;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec)
    acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec)
    acceptor.bind(endpoint, ec);
  if (!ec)
    acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  auto port = acceptor.local_endpoint().port();
  x.accept();
  x.work.emplace(x.ioc->get_executor());
  for (std::size_t i = 0; i < x.opts.io_threads; ++i)
    x.threads.emplace_back([&x] { x.ioc->run(); });
  return port;
}

std::size_t server::stop(std::chrono::milliseconds grace) {
  auto& x = *impl_;
  if (x.threads.empty())
    return 0;
  x.stopping = true;
  x.post(x.acceptor->get_executor(), [&x] {
    beast::error_code ignored;
    x.acceptor->close(ignored);
  });
  {
    std::unique_lock<std::mutex> guard{x.mtx};
    x.answered.wait_for(guard, grace, [&x] { return x.in_flight == 0; });
  }
  auto left = x.in_flight.load();
  {
    std::lock_guard<std::mutex> guard{x.post_mtx};
    x.open = false;
  }
  x.work.reset();
  x.ioc->stop();
  for (auto& t : x.threads)
    t.join();
  x.threads.clear();
  {
    std::lock_guard<std::mutex> guard{x.awaiting_mtx};
    x.awaiting.clear();
  }
  // Destroys the idle connections (and any left unanswered) with their
  // pending operations.
  x.acceptor.reset();
  x.ioc.reset();
  return left;
}

std::size_t server::in_flight() const noexcept {
  return impl_->in_flight;
}

} // namespace parley::runtime::http
