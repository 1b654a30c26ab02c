#include "support/sse_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sstream>
#include <stdexcept>

namespace parley::test {

namespace {

using clock = std::chrono::steady_clock;

std::chrono::milliseconds left_until(clock::time_point deadline) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
  return left.count() > 0 ? left : std::chrono::milliseconds(0);
}

} // namespace

sse_client::sse_client(int port, const std::string& path,
                       const std::string& last_event_id, int receive_buffer) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd_ < 0)
    throw std::runtime_error("socket failed");
  if (receive_buffer > 0)
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error("cannot connect to port " + std::to_string(port));
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                    "Accept: text/event-stream\r\n";
  if (!last_event_id.empty())
    req += "Last-Event-ID: " + last_event_id + "\r\n";
  req += "\r\n";
  if (::send(fd_, req.data(), req.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(req.size()))
    throw std::runtime_error("cannot send the request");
}

sse_client::~sse_client() {
  close();
}

void sse_client::close() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
}

bool sse_client::read_some(std::chrono::milliseconds wait) {
  if (fd_ < 0 || closed_)
    return false;
  pollfd p{fd_, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(wait.count())) <= 0)
    return true;
  char buf[65536];
  auto n = ::recv(fd_, buf, sizeof buf, 0);
  if (n <= 0) {
    closed_ = true;
    return false;
  }
  std::string in(buf, static_cast<std::size_t>(n));
  if (!head_done_) {
    head_ += in;
    auto end = head_.find("\r\n\r\n");
    if (end == std::string::npos)
      return true;
    body_ += head_.substr(end + 4);
    head_.resize(end + 4);
    head_done_ = true;
  } else {
    body_ += in;
  }
  parse();
  return true;
}

void sse_client::parse() {
  for (;;) {
    auto end = body_.find("\n\n", parsed_);
    if (end == std::string::npos)
      return;
    std::istringstream block{body_.substr(parsed_, end - parsed_)};
    parsed_ = end + 2;
    sse_event x;
    bool data = false;
    std::string line;
    while (std::getline(block, line)) {
      if (line.rfind(":", 0) == 0) {
        ++comments_;
      } else if (line.rfind("id: ", 0) == 0) {
        x.id = line.substr(4);
      } else if (line.rfind("event: ", 0) == 0) {
        x.type = line.substr(7);
      } else if (line.rfind("data: ", 0) == 0) {
        x.data_text += line.substr(6);
        data = true;
      }
    }
    if (!data)
      continue;
    x.data = nlohmann::json::parse(x.data_text, nullptr, false);
    if (x.data.is_discarded())
      x.data = nullptr;
    events_.push_back(std::move(x));
  }
}

std::string sse_client::headers(std::chrono::milliseconds limit) {
  auto deadline = clock::now() + limit;
  while (!head_done_ && clock::now() < deadline)
    if (!read_some(left_until(deadline)))
      break;
  return head_done_ ? head_ : std::string{};
}

bool sse_client::read_until(
    const std::function<bool(const std::vector<sse_event>&)>& done,
    std::chrono::milliseconds limit) {
  auto deadline = clock::now() + limit;
  while (!done(events_) && clock::now() < deadline)
    if (!read_some(left_until(deadline)))
      break;
  return done(events_);
}

bool sse_client::read_until_closed(std::chrono::milliseconds limit) {
  auto deadline = clock::now() + limit;
  while (clock::now() < deadline)
    if (!read_some(left_until(deadline)))
      return closed_;
  return closed_;
}

} // namespace parley::test
