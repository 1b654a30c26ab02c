#include "support/raw_http.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "support/text.hpp"

namespace parley::test {

std::string raw_answer::header(const std::string& name) const {
  auto wanted = lower(name) + ":";
  auto lines = lower(head);
  for (std::size_t at = lines.find("\r\n"); at != std::string::npos;
       at = lines.find("\r\n", at + 2)) {
    if (lines.compare(at + 2, wanted.size(), wanted) != 0)
      continue;
    auto begin = head.find_first_not_of(' ', at + 2 + wanted.size());
    auto end = head.find("\r\n", begin);
    return head.substr(begin, end - begin);
  }
  return {};
}

nlohmann::json raw_answer::json() const {
  return nlohmann::json::parse(body, nullptr, false);
}

raw_connection::raw_connection(int port) {
  auto fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return;
  // Bounds connect() too (Linux honours the send timeout for it).
  timeval limit{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    ::close(fd);
    return;
  }
  fd_ = fd;
}

raw_connection::~raw_connection() {
  if (fd_ >= 0)
    ::close(fd_);
}

bool raw_connection::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (fd_ >= 0 && sent < bytes.size()) {
    auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0)
      return false;
    sent += static_cast<std::size_t>(n);
  }
  return fd_ >= 0;
}

bool raw_connection::receive(std::chrono::steady_clock::time_point deadline) {
  if (fd_ < 0 || peer_closed_)
    return false;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  pollfd p{fd_, POLLIN, 0};
  if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
    return false;
  char buf[8192];
  auto n = ::recv(fd_, buf, sizeof buf, 0);
  if (n <= 0) {
    peer_closed_ = true;
    return false;
  }
  pending_.append(buf, static_cast<std::size_t>(n));
  return true;
}

raw_answer raw_connection::read_answer(std::chrono::milliseconds limit, bool bodyless) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  std::size_t end;
  while ((end = pending_.find("\r\n\r\n")) == std::string::npos)
    if (!receive(deadline))
      return {};
  raw_answer a;
  a.head = pending_.substr(0, end + 2);
  pending_.erase(0, end + 4);
  std::size_t length = 0;
  if (!bodyless) {
    auto given = a.header("Content-Length");
    length = given.empty() ? 0 : std::strtoul(given.c_str(), nullptr, 10);
  }
  while (pending_.size() < length)
    if (!receive(deadline))
      return {};
  a.body = pending_.substr(0, length);
  pending_.erase(0, length);
  auto space = a.head.find(' ');
  if (space != std::string::npos)
    a.status = std::atoi(a.head.c_str() + space + 1);
  return a;
}

bool raw_connection::closed_by_peer(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  auto before = pending_.size();
  while (!peer_closed_ && receive(deadline)) {
  }
  return peer_closed_ && pending_.size() == before;
}

} // namespace parley::test
