#include "cluster/node_transport.hpp"

#include <exception>
#include <iostream>
#include <set>
#include <utility>

#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/atom.hpp"
#include "caf/defaults.hpp"
#include "caf/io/basp_broker.hpp"
#include "caf/io/middleman.hpp"
#include "caf/io/middleman_actor_impl.hpp"
#include "caf/io/network/default_multiplexer.hpp"
#include "caf/io/network/doorman_impl.hpp"
#include "caf/io/network/native_socket.hpp"
#include "caf/io/network/stream_impl.hpp"
#include "caf/io/scribe.hpp"
#include "caf/openssl/manager.hpp"
#include "caf/openssl/session.hpp"
#include "caf/policy/tcp.hpp"
#include "caf/scoped_actor.hpp"

namespace parley::cluster {

namespace {

using default_mpx = caf::io::network::default_multiplexer;
using caf::io::network::native_socket;
using caf::io::network::rw_state;
using guard_clock = connection_guard::clock;

/// Reads and writes through CAF's OpenSSL session (plain TCP without one)
/// and tells the guard when the peer's data arrives. OpenSSL hands over
/// application data only after the handshake, the peer's certificate check
/// included, has passed.
class guarded_policy {
public:
  guarded_policy(caf::openssl::session_ptr session,
                 std::unique_ptr<connection_guard::connection> guarded)
      : session_(std::move(session)), guarded_(std::move(guarded)) {}

  rw_state read_some(size_t& result, native_socket fd, void* buf, size_t len) {
    auto state = session_ ? session_->read_some(result, fd, buf, len)
                          : caf::policy::tcp::read_some(result, fd, buf, len);
    if (result > 0)
      guarded_->received(guard_clock::now());
    return state;
  }

  rw_state write_some(size_t& result, native_socket fd, const void* buf, size_t len) {
    return session_ ? session_->write_some(result, fd, buf, len)
                    : caf::policy::tcp::write_some(result, fd, buf, len);
  }

  bool must_read_more(native_socket fd, size_t threshold) {
    return session_ && session_->must_read_more(fd, threshold);
  }

private:
  caf::openssl::session_ptr session_;
  /// Destroyed, taking the connection off the guard, before the stream
  /// closes the socket.
  std::unique_ptr<connection_guard::connection> guarded_;
};

/// CAF's scribe (the OpenSSL module's, for TLS) over a guarded_policy.
class guarded_scribe : public caf::io::scribe {
public:
  guarded_scribe(default_mpx& mpx, native_socket fd, caf::openssl::session_ptr session,
                 std::unique_ptr<connection_guard::connection> guarded)
      : scribe(caf::io::network::conn_hdl_from_socket(fd)), tls_(session != nullptr),
        stream_(mpx, fd, std::move(session), std::move(guarded)) {}

  void configure_read(caf::io::receive_policy::config config) override {
    stream_.configure_read(config);
    if (!launched_)
      launch();
  }

  void ack_writes(bool enable) override { stream_.ack_writes(enable); }

  std::vector<char>& wr_buf() override { return stream_.wr_buf(); }

  std::vector<char>& rd_buf() override { return stream_.rd_buf(); }

  void graceful_shutdown() override {
    stream_.graceful_shutdown();
    detach(&stream_.backend(), false);
  }

  void flush() override { stream_.flush(this); }

  std::string addr() const override {
    auto x = caf::io::network::remote_addr_of_fd(stream_.fd());
    return x ? *x : std::string{};
  }

  std::uint16_t port() const override {
    auto x = caf::io::network::remote_port_of_fd(stream_.fd());
    return x ? *x : 0;
  }

  void add_to_loop() override { stream_.activate(this); }

  void remove_from_loop() override { stream_.passivate(); }

private:
  void launch() {
    launched_ = true;
    stream_.start(this);
    // As CAF's OpenSSL scribe does: schedules a write so that OpenSSL can
    // go on with the handshake.
    if (tls_)
      stream_.force_empty_write(this);
  }

  bool launched_ = false;
  bool tls_;
  caf::io::network::stream_impl<guarded_policy> stream_;
};

/// CAF's doorman, with every accepted socket admitted by the guard first.
class guarded_doorman : public caf::io::network::doorman_impl {
public:
  guarded_doorman(default_mpx& mpx, native_socket fd,
                  std::shared_ptr<connection_guard> guard, bool tls)
      : doorman_impl(mpx, fd), guard_(std::move(guard)), tls_(tls) {}

  bool new_connection() override {
    if (detached())
      return false;
    auto& mpx = acceptor_.backend();
    auto fd = acceptor_.accepted_socket();
    auto guarded = connection_guard::admit(guard_, fd, guard_clock::now());
    if (!guarded || !caf::io::network::nonblocking(fd, true)) {
      guarded.reset(); // off the guard before the descriptor can be reused
      caf::io::network::close_socket(fd);
      return true;
    }
    caf::openssl::session_ptr session;
    if (tls_) {
      session = tls_session(fd);
      if (!session) {
        guarded.reset(); // counted as a failed handshake
        caf::io::network::close_socket(fd);
        return true;
      }
    }
    auto scribe = caf::make_counted<guarded_scribe>(mpx, fd, std::move(session),
                                                    std::move(guarded));
    auto hdl = scribe->hdl();
    parent()->add_scribe(std::move(scribe));
    return doorman::new_connection(&mpx, hdl);
  }

private:
  /// CAF's server-side session; null when the handshake already failed.
  caf::openssl::session_ptr tls_session(native_socket fd) {
    try {
      return caf::openssl::make_session(parent()->system(), fd, true);
    } catch (const std::exception& e) {
      // CAF re-reads the TLS files for every connection and throws when one
      // has gone bad since the start; CAF's own doorman would end the
      // process here.
      std::cerr << "parley node: refusing a connection: cannot set up TLS: " << e.what()
                << std::endl;
      return nullptr;
    }
  }

  std::shared_ptr<connection_guard> guard_;
  bool tls_;
};

/// CAF's middleman actor with a guarded_doorman behind `publish`. The node
/// only publishes through it; its `connect` is CAF's plain one.
class node_middleman : public caf::io::middleman_actor_impl {
public:
  node_middleman(caf::actor_config& cfg, caf::actor broker,
                 std::shared_ptr<connection_guard> guard, bool tls)
      : middleman_actor_impl(cfg, std::move(broker)), guard_(std::move(guard)),
        tls_(tls) {}

  const char* name() const override { return "parley.node_transport"; }

protected:
  caf::expected<caf::io::doorman_ptr> open(std::uint16_t port, const char* addr,
                                           bool reuse) override {
    auto fd = caf::io::network::new_tcp_acceptor_impl(port, addr, reuse);
    if (!fd)
      return std::move(fd.error());
    auto& mpx = static_cast<default_mpx&>(system().middleman().backend());
    return caf::make_counted<guarded_doorman>(mpx, *fd, guard_, tls_);
  }

private:
  std::shared_ptr<connection_guard> guard_;
  bool tls_;
};

} // namespace

caf::io::middleman_actor spawn_node_transport(caf::actor_system& sys,
                                              std::shared_ptr<connection_guard> guard) {
  auto broker = sys.middleman().named_broker<caf::io::basp_broker>(caf::atom("BASP"));
  return sys.spawn<node_middleman, caf::detached + caf::hidden>(
      std::move(broker), std::move(guard), sys.has_openssl_manager());
}

caf::expected<std::uint16_t>
publish_through(caf::actor_system& sys, const caf::io::middleman_actor& transport,
                caf::strong_actor_ptr whom, std::set<std::string> interfaces,
                const std::string& host, std::uint16_t port) {
  caf::expected<std::uint16_t> result{caf::sec::cannot_open_port};
  caf::scoped_actor self{sys};
  self->request(transport, std::chrono::seconds(10), caf::publish_atom::value, port,
                std::move(whom), std::move(interfaces), host, true)
      .receive([&](std::uint16_t actual) { result = actual; },
               [&](caf::error& err) { result = std::move(err); });
  return result;
}

caf::io::middleman_actor connecting_middleman(caf::actor_system& sys) {
  return sys.has_openssl_manager() ? sys.openssl_manager().actor_handle()
                                   : sys.middleman().actor_handle();
}

caf::expected<room_host_actor>
connect_room_host(caf::actor_system& sys, const std::string& host, std::uint16_t port) {
  auto timeout = caf::get_or(sys.config(), "middleman.connection-timeout",
                             caf::defaults::middleman::connection_timeout);
  auto middleman = connecting_middleman(sys);
  caf::expected<room_host_actor> result{caf::sec::cannot_connect_to_node};
  caf::scoped_actor self{sys};
  self->request(middleman, timeout, caf::connect_atom::value, host, port)
      .receive(
          [&](caf::node_id&, caf::strong_actor_ptr& ptr, std::set<std::string>& ifs) {
            if (!ptr)
              result = caf::make_error(caf::sec::no_actor_published_at_port, port);
            else if (!sys.assignable<room_host_actor>(ifs))
              result = caf::make_error(caf::sec::unexpected_actor_messaging_interface);
            else
              result = caf::actor_cast<room_host_actor>(std::move(ptr));
          },
          [&](caf::error& err) { result = std::move(err); });
  return result;
}

} // namespace parley::cluster
