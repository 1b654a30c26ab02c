#include "support/postgres_cluster.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "support/process.hpp"

namespace parley::test {

namespace {

/// A port nobody listens on right now (the kernel's choice for port 0).
int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    throw std::runtime_error("postgres_cluster: no socket");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("postgres_cluster: cannot find a free port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

void check(const process_result& r, const std::string& what, const std::string& log) {
  if (r.exit_code != 0)
    throw std::runtime_error("postgres_cluster: " + what + " failed (" +
                             std::to_string(r.exit_code) + "): " + r.output + log);
}

} // namespace

std::string postgres_cluster::bin_dir() {
  const char* env = std::getenv("PARLEY_PG_BIN");
  std::string dir = env != nullptr && *env != '\0' ? env : "/usr/lib/postgresql/15/bin";
  return std::filesystem::exists(dir + "/initdb") && std::filesystem::exists(dir + "/pg_ctl")
             ? dir
             : std::string{};
}

std::string postgres_cluster::as_owner(const std::string& command) const {
  return ::geteuid() == 0 ? "runuser -u nobody -- " + command : command;
}

postgres_cluster::postgres_cluster(std::string also_on) : also_on_(std::move(also_on)) {
  auto bin = bin_dir();
  if (bin.empty())
    throw std::runtime_error(postgres_missing);
  std::string pattern = (std::filesystem::temp_directory_path() / "parley_pg_XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("postgres_cluster: cannot make a temporary directory");
  dir_ = pattern;
  if (::geteuid() == 0) {
    auto* nobody = ::getpwnam("nobody");
    if (nobody == nullptr || ::chown(dir_.c_str(), nobody->pw_uid, nobody->pw_gid) != 0)
      throw std::runtime_error("postgres_cluster: cannot hand " + dir_ + " to nobody");
  }
  check(run_command(as_owner(bin + "/initdb -D " + dir_ + "/data -U parley -A trust "
                                   "-E UTF8 --no-sync --no-instructions"),
                    60),
        "initdb", "");
  if (!also_on_.empty()) {
    std::ofstream hba{dir_ + "/data/pg_hba.conf", std::ios::app};
    hba << "host all all " << also_on_ << "/24 trust\n";
  }
  port_ = free_port();
  start();
}

postgres_cluster::~postgres_cluster() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void postgres_cluster::start() {
  auto bin = bin_dir();
  auto r = run_command(as_owner(bin + "/pg_ctl -D " + dir_ + "/data -l " + dir_ +
                                "/log -w -t 30 -o \"-p " + std::to_string(port_) +
                                " -k " + dir_ + " -c listen_addresses=127.0.0.1" +
                                (also_on_.empty() ? "" : "," + also_on_) +
                                " -c fsync=off\" start"),
                       40);
  if (r.exit_code != 0)
    check(r, "pg_ctl start", run_command("cat " + dir_ + "/log", 5).output);
  running_ = true;
}

void postgres_cluster::stop() {
  if (!running_)
    return;
  running_ = false;
  run_command(as_owner(bin_dir() + "/pg_ctl -D " + dir_ + "/data -m immediate -w -t 30 stop"),
              40);
}

std::string postgres_cluster::uri(const std::string& name) const {
  return "postgresql://parley@127.0.0.1:" + std::to_string(port_) + "/" + name;
}

std::string postgres_cluster::fresh_database(const std::string& name) {
  auto psql = bin_dir() + "/psql -X -q -v ON_ERROR_STOP=1 \"" + uri() + "\"";
  check(run_command(psql + " -c 'DROP DATABASE IF EXISTS \"" + name + "\"' -c 'CREATE DATABASE \"" + name + "\"'", 30),
        "create database " + name, "");
  return uri(name);
}

} // namespace parley::test
