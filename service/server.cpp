#include "service/server.hpp"

#include <array>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "service/admission.hpp"
#include "service/bearer.hpp"
#include "service/errors.hpp"
#include "service/route_table.hpp"
#include "service/stream_queue.hpp"

namespace parley::service {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

std::string_view view_of(beast::string_view x) {
  return {x.data(), x.size()};
}

/// How long a connection in the health slot may take to send its request.
constexpr std::chrono::milliseconds health_timeout{1000};

/// Beast's limit on a request's start line and headers (request_parser's
/// default).
constexpr std::size_t max_header_bytes = 8192;

/// Whether an accept failed for want of descriptors or memory: the
/// connection stays in the kernel's queue, and retrying at once would spin.
bool out_of_resources(const beast::error_code& ec) {
  if (ec.category() != boost::system::system_category())
    return false;
  auto e = ec.value();
  return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM;
}

/// A descriptor held in reserve: given up, it lets one more connection in
/// when the process is at its open-files limit. -1 when none could be opened.
int open_spare() {
  return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/// The headers of an event stream's answer to `HEAD`: a 200 without a body.
void set_stream_headers(bhttp::response<bhttp::string_body>& res) {
  res.result(bhttp::status::ok);
  res.set(bhttp::field::content_type, "text/event-stream");
  res.set(bhttp::field::cache_control, "no-cache");
}

/// What starts every event stream (docs/api.md's event stream headers; the body
/// ends when the connection does).
const shared_bytes& stream_headers() {
  static const shared_bytes x = std::make_shared<const std::string>(
      "HTTP/1.1 200 OK\r\nServer: parley\r\nContent-Type: text/event-stream\r\n"
      "Cache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n");
  return x;
}

/// The comment an idle event stream sends now and then.
const shared_bytes& keepalive_frame() {
  static const shared_bytes x = std::make_shared<const std::string>(": keep-alive\n\n");
  return x;
}

} // namespace

struct server::impl {
  impl(options o, handler_function h)
      : opts(std::move(o)), handler(std::move(h)), admitted(opts.max_connections) {
    ioc.emplace(static_cast<int>(opts.io_threads));
    acceptor.emplace(net::make_strand(*ioc));
    retry.emplace(acceptor->get_executor());
  }

  ~impl() {
    if (spare >= 0)
      ::close(spare);
  }

  options opts;
  handler_function handler;
  /// Reset by `stop`, which destroys every connection with them.
  std::optional<net::io_context> ioc;
  std::optional<tcp::acceptor> acceptor;
  /// What follows is the acceptor's, used on its strand only.
  admission admitted;
  accept_backoff backoff;
  /// Ends a pause after an accept that failed for want of descriptors.
  std::optional<net::steady_timer> retry;
  bool accepting = false;
  bool pausing = false;
  int spare = -1;
  /// The spare was given up: the next connection accepted takes the health
  /// slot whatever the count.
  bool spare_given = false;
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
  std::atomic<std::size_t> dropped_streams{0};
  /// How `stop` ends each open event stream: it closes the stream's queue
  /// at once (nothing pushed later reaches a stopped server) and its
  /// connection on its strand.
  std::mutex streams_mtx;
  std::unordered_map<const void*, std::function<void()>> streams;

  void add_stream(const void* x, std::function<void()> end) {
    std::lock_guard<std::mutex> guard{streams_mtx};
    streams.emplace(x, std::move(end));
  }

  void remove_stream(const void* x) {
    std::lock_guard<std::mutex> guard{streams_mtx};
    streams.erase(x);
  }

  void close_streams() {
    // Ended outside the lock: a connection that ends with its stream takes
    // it (remove_stream).
    std::unordered_map<const void*, std::function<void()>> ending;
    {
      std::lock_guard<std::mutex> guard{streams_mtx};
      ending.swap(streams);
    }
    for (auto& entry : ending)
      entry.second();
  }
  std::mutex mtx;
  std::condition_variable answered;

  /// Accepts the next connection if there is room for it and no accept or
  /// pause is under way.
  void accept();
  void on_accept(beast::error_code ec, tcp::socket socket);
  /// Starts a connection in `slot`; an idle one in the health slot goes at
  /// once when others wait behind it.
  void admit(tcp::socket socket, admission::slot slot);
  /// Waits the backoff's next pause, then accepts again.
  void pause();
  /// Whether a connection waits in the kernel's queue.
  bool others_waiting();

  /// A connection in `slot` ended: its room is free again.
  void connection_ended(admission::slot slot) {
    std::lock_guard<std::mutex> guard{post_mtx};
    if (!open)
      return;
    net::post(acceptor->get_executor(), [this, slot] {
      admitted.release(slot);
      if (slot == admission::slot::health && spare < 0)
        spare = open_spare();
      accept();
    });
  }

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
    // Taken before the lock and let go after it: the last owner of a
    // connection ends it, which takes the lock (connection_ended).
    auto self = weak.lock();
    if (!self)
      return;
    std::lock_guard<std::mutex> guard{post_mtx};
    if (open)
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
/// reads the next one while the client keeps the connection alive. An
/// answer that is an event stream keeps the connection until the client
/// goes, the stream is dropped or the server stops. A connection in the
/// health slot makes one request, `/healthz` or `/readyz`.
///
/// Every step runs under `guarded`: whatever it throws ends at this
/// connection (`fail`), never on the I/O thread.
class session : public std::enable_shared_from_this<session> {
public:
  session(tcp::socket socket, server::impl* srv, admission::slot slot)
      : stream_(std::move(socket)), srv_(srv), slot_(slot),
        keepalive_(stream_.get_executor()) {}

  ~session() {
    if (events_)
      srv_->remove_stream(events_.get());
    srv_->connection_ended(slot_);
  }

  auto executor() { return stream_.get_executor(); }

  void run() {
    net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
      self->guarded([&] { self->read(); });
    });
  }

private:
  /// Where the connection is with its request.
  enum class phase {
    /// Waiting for a request; none counted.
    reading,
    /// A request counted in flight, its answer not begun (the route has it).
    routing,
    /// Its answer being built.
    answering,
    /// Its answer being written; on_write ends it.
    sending,
    /// An event stream (its request is done).
    streaming,
  };

  template <class F> void guarded(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      fail();
    }
  }

  /// After a step threw: a request with nothing sent for it yet gets 500
  /// E037 (without anything of the request or the exception in it) and
  /// the connection closes after it; otherwise the connection closes now.
  void fail() noexcept {
    try {
      if (phase_ == phase::routing && answered_ && answered_->exchange(true))
        return; // The route answered before it threw: that answer comes.
      if ((phase_ == phase::routing || phase_ == phase::answering) && !failed_) {
        failed_ = true;
        keep_alive_ = false;
        write(error_response(messages::error_code::internal_error,
                             "the server failed on this request"));
        return;
      }
    } catch (...) {
      // Not even the 500 could be sent: the connection closes below.
    }
    if (phase_ == phase::routing || phase_ == phase::answering) {
      srv_->release(this);
      srv_->request_done();
    }
    phase_ = phase::reading;
    try {
      if (events_)
        end_stream();
      else
        close();
    } catch (...) {
      // The socket goes with the connection.
    }
  }

  std::chrono::milliseconds read_timeout() const {
    return slot_ == admission::slot::health ? health_timeout : srv_->opts.idle_timeout;
  }

  void read() {
    if (srv_->stopping) {
      close();
      return;
    }
    head_ = false;
    parser_.emplace();
    parser_->body_limit(srv_->opts.max_body_bytes);
    parser_->header_limit(static_cast<std::uint32_t>(max_header_bytes));
    stream_.expires_after(read_timeout());
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = shared_from_this()](beast::error_code ec, std::size_t) {
                        self->guarded([&] { self->on_read(ec); });
                      });
  }

  void on_read(beast::error_code ec) {
    if (ec == bhttp::error::body_limit)
      return refuse(messages::error_code::request_too_large,
                    "the request body is larger than " +
                        std::to_string(srv_->opts.max_body_bytes) + " bytes",
                    {{"max_body_bytes", srv_->opts.max_body_bytes}});
    if (ec == bhttp::error::header_limit)
      return refuse(messages::error_code::headers_too_large,
                    "the request's start line and headers are larger than " +
                        std::to_string(max_header_bytes) + " bytes",
                    {{"max_header_bytes", max_header_bytes}});
    if (ec == bhttp::error::end_of_stream || ec == beast::error::timeout ||
        ec == net::error::operation_aborted || ec == net::error::connection_reset ||
        ec == net::error::eof) {
      close();
      return;
    }
    if (ec)
      return refuse(messages::error_code::invalid_request,
                    "malformed HTTP request: " + ec.message());
    auto& req = parser_->get();
    keep_alive_ = req.keep_alive();
    version_ = req.version();
    head_ = req.method() == bhttp::verb::head;
    if (version_ >= 11 && req.count(bhttp::field::host) != 1)
      return refuse(messages::error_code::invalid_request,
                    "an HTTP/1.1 request needs exactly one Host header");
    if (slot_ == admission::slot::health) {
      keep_alive_ = false;
      if (!rules_of(view_of(req.target())).health_slot)
        return refuse(messages::error_code::overloaded,
                      "the server is at its limit of " +
                          std::to_string(srv_->opts.max_connections) +
                          " connections; retry later");
    }
    begin_request();
    if (!srv_->opts.token.empty() && rules_of(view_of(req.target())).token &&
        !carries_token(view_of(req[bhttp::field::authorization]), srv_->opts.token)) {
      if (++failed_tokens_ >= max_failed_tokens_per_connection)
        keep_alive_ = false;
      write(error_response(messages::error_code::unauthorized,
                           "a bearer token is required: Authorization: Bearer TOKEN"));
      return;
    }
    request r;
    // HEAD is GET without the body, which `write` leaves out.
    r.method = head_ ? "GET" : std::string{req.method_string()};
    r.target = std::string{req.target()};
    r.body = std::move(req.body());
    r.last_event_id = std::string{req["Last-Event-ID"]};
    answered_ = std::make_shared<std::atomic<bool>>(false);
    srv_->hold(shared_from_this());
    std::weak_ptr<session> weak = shared_from_this();
    auto* srv = srv_;
    srv_->handler(std::move(r), [weak, srv, once = answered_](response x) {
      if (once->exchange(true))
        return;
      srv->post_to(weak, [weak, x = std::move(x)]() mutable {
        if (auto self = weak.lock())
          self->guarded([&] { self->write(std::move(x)); });
      });
    });
  }

  /// Answers the request just read (or that could not be read) with error
  /// `code`, and closes the connection after it.
  void refuse(messages::error_code code, const std::string& message,
              nlohmann::json details = nlohmann::json::object()) {
    keep_alive_ = false;
    begin_request();
    write(error_response(code, message, std::move(details)));
  }

  void begin_request() {
    ++srv_->in_flight;
    phase_ = phase::routing;
    answered_.reset();
  }

  void write(response x) {
    phase_ = phase::answering;
    srv_->release(this);
    if (x.stream && x.status == 200 && !head_)
      return open_stream(std::move(x.stream));
    // A stream's headers tell no length: the connection ends after them, as
    // the stream's would.
    if (x.stream)
      keep_alive_ = false;
    res_ = {};
    res_.version(version_);
    res_.result(x.status);
    res_.set(bhttp::field::server, "parley");
    if (x.status == 401)
      res_.set(bhttp::field::www_authenticate, "Bearer");
    if (!x.allow.empty())
      res_.set(bhttp::field::allow, x.allow);
    res_.keep_alive(keep_alive_ && !srv_->stopping);
    if (x.stream) {
      set_stream_headers(res_);
    } else {
      res_.set(bhttp::field::content_type, x.content_type);
      if (x.retry_after_s > 0)
        res_.set(bhttp::field::retry_after, std::to_string(x.retry_after_s));
      res_.body() = std::move(x.body);
      res_.prepare_payload();
      // HEAD: the Content-Length of GET's body, without it.
      if (head_)
        res_.body().clear();
    }
    stream_.expires_after(read_timeout());
    bhttp::async_write(stream_, res_,
                       [self = shared_from_this()](beast::error_code ec, std::size_t) {
                         self->guarded([&] { self->on_write(ec); });
                       });
    phase_ = phase::sending;
  }

  void on_write(beast::error_code ec) {
    auto again = !ec && res_.keep_alive();
    phase_ = phase::reading;
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

  /// Sends the event stream's headers through its queue, hands the stream
  /// to the route, and watches the client's side: the stream ends when
  /// it closes (or sends anything: a stream takes no requests).
  void open_stream(stream_function start) {
    std::weak_ptr<session> weak = shared_from_this();
    auto* srv = srv_;
    events_ = std::make_shared<stream_queue>(
        srv_->opts.stream_queue_bytes, [weak, srv](bool overflow) {
          if (overflow)
            ++srv->dropped_streams;
          srv->post_to(weak, [weak, overflow] {
            if (auto self = weak.lock())
              self->guarded([&] { overflow ? self->end_stream() : self->flush(); });
          });
        });
    std::weak_ptr<stream_queue> queue = events_;
    srv_->add_stream(events_.get(), [weak, queue, srv] {
      if (auto q = queue.lock())
        q->close();
      srv->post_to(weak, [weak] {
        if (auto self = weak.lock())
          self->guarded([&] { self->end_stream(); });
      });
    });
    stream_.expires_never();
    events_->push(stream_headers());
    phase_ = phase::streaming;
    srv_->request_done();
    if (srv_->stopping) {
      end_stream();
      return;
    }
    start(events_);
    watch_client();
    arm_keepalive();
  }

  void watch_client() {
    stream_.socket().async_read_some(
        net::buffer(probe_),
        [self = shared_from_this()](beast::error_code, std::size_t) {
          self->guarded([&] { self->end_stream(); });
        });
  }

  void arm_keepalive() {
    keepalive_.expires_after(srv_->opts.stream_keepalive);
    keepalive_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || !self->events_->open())
        return;
      self->guarded([&] {
        self->events_->push(keepalive_frame());
        self->arm_keepalive();
      });
    });
  }

  /// Writes every frame queued in one write; again once it is written.
  void flush() {
    auto frames = events_->take();
    if (frames.empty())
      return;
    writing_ = std::move(frames);
    buffers_.clear();
    for (const auto& x : writing_)
      buffers_.emplace_back(x->data(), x->size());
    net::async_write(stream_.socket(), buffers_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                       self->guarded([&] {
                         self->events_->written(n);
                         self->writing_.clear();
                         if (ec)
                           self->end_stream();
                         else
                           self->flush();
                       });
                     });
  }

  void end_stream() {
    events_->close();
    srv_->remove_stream(events_.get());
    keepalive_.cancel();
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.socket().close(ignored);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  bhttp::response<bhttp::string_body> res_;
  server::impl* srv_;
  admission::slot slot_;
  phase phase_ = phase::reading;
  bool keep_alive_ = true;
  /// The request is a HEAD: its answer goes without the body.
  bool head_ = false;
  unsigned version_ = 11;
  /// Set once the current request is answered, by its route or by `fail`:
  /// whichever comes second sends nothing.
  std::shared_ptr<std::atomic<bool>> answered_;
  /// `fail` answered 500 already: a second failure closes.
  bool failed_ = false;
  std::size_t failed_tokens_ = 0;
  /// The event stream this connection carries, once it is one.
  std::shared_ptr<stream_queue> events_;
  net::steady_timer keepalive_;
  /// The frames being written, and their buffers.
  std::vector<shared_bytes> writing_;
  std::vector<net::const_buffer> buffers_;
  /// Where a stream's client side is read (only to see it close).
  std::array<char, 256> probe_{};
};

} // namespace

void server::impl::accept() {
  if (accepting || pausing || stopping || !acceptor->is_open() ||
      !admitted.may_accept())
    return;
  accepting = true;
  acceptor->async_accept(net::make_strand(*ioc),
                         [this](beast::error_code ec, tcp::socket socket) {
                           accepting = false;
                           if (!acceptor->is_open())
                             return;
                           try {
                             on_accept(ec, std::move(socket));
                           } catch (...) {
                             // That connection is lost (its socket closes);
                             // the next ones are accepted.
                           }
                           accept();
                         });
}

void server::impl::on_accept(beast::error_code ec, tcp::socket socket) {
  if (out_of_resources(ec)) {
    if (spare >= 0 && !admitted.health_busy()) {
      // The process is at its limit: the spare's descriptor takes the next
      // connection into the health slot.
      ::close(spare);
      spare = -1;
      spare_given = true;
      return;
    }
    pause();
    return;
  }
  // Any other failure (a client that gave up before it was accepted) costs
  // only that connection.
  if (ec)
    return;
  backoff.reset();
  auto slot = admission::slot::ordinary;
  if (spare_given) {
    spare_given = false;
    slot = admitted.admit_health();
  } else {
    slot = admitted.admit();
  }
  admit(std::move(socket), slot);
}

void server::impl::admit(tcp::socket socket, admission::slot slot) {
  if (slot == admission::slot::health) {
    beast::error_code ignored;
    // An idle connection would keep the slot from a health check waiting
    // behind it: it may stay only when it already asked, or no one waits.
    if (socket.available(ignored) == 0 && others_waiting()) {
      socket.close(ignored);
      admitted.release(slot);
      if (spare < 0)
        spare = open_spare();
      return;
    }
  }
  std::make_shared<session>(std::move(socket), this, slot)->run();
}

bool server::impl::others_waiting() {
  pollfd p{acceptor->native_handle(), POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & POLLIN) != 0;
}

void server::impl::pause() {
  pausing = true;
  spare_given = false;
  retry->expires_after(backoff.next());
  retry->async_wait([this](beast::error_code ec) {
    pausing = false;
    if (ec)
      return;
    if (spare < 0)
      spare = open_spare();
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
  x.spare = open_spare();
  x.accept();
  x.work.emplace(x.ioc->get_executor());
  for (std::size_t i = 0; i < x.opts.io_threads; ++i)
    x.threads.emplace_back([&x] {
      // Every connection catches what its steps throw (session::guarded);
      // should anything still escape a handler, the thread serves on.
      for (;;) {
        try {
          x.ioc->run();
          return;
        } catch (...) {
        }
      }
    });
  return port;
}

std::size_t server::stop(std::chrono::milliseconds grace) {
  auto& x = *impl_;
  if (x.threads.empty())
    return 0;
  x.stopping = true;
  x.close_streams();
  x.post(x.acceptor->get_executor(), [&x] {
    beast::error_code ignored;
    x.acceptor->close(ignored);
    x.retry->cancel();
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
  x.retry.reset();
  x.acceptor.reset();
  x.ioc.reset();
  return left;
}

std::size_t server::in_flight() const noexcept {
  return impl_->in_flight;
}

std::size_t server::open_streams() const {
  std::lock_guard<std::mutex> guard{impl_->streams_mtx};
  return impl_->streams.size();
}

std::size_t server::dropped_streams() const noexcept {
  return impl_->dropped_streams;
}

} // namespace parley::service
