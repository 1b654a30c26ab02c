#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>

namespace parley::actors::gateway {

/// Which node runs each open negotiation that this node forwarded a request
/// for lately (docs/cluster.md, "Any node answers"), by negotiation id: the
/// node's address (`host:port` of its node port). A move through a node that
/// does not run its negotiation is then forwarded at once, without the
/// store's two reads (the record, then its owner) each time.
///
/// An entry is only a hint: the node it names answers from its own memory
/// and store, so a stale entry costs one hop, never a wrong answer. Entries
/// go when their negotiation ends or its node answers an error, when the
/// connection to the node is lost, and all at once when `limit` is reached.
class owner_cache {
public:
  explicit owner_cache(std::size_t limit = 65536) : limit_(limit) {}

  /// The address of the node that runs negotiation `id`, or null.
  const std::string* find(const std::string& id) const;

  /// Notes that the node at `address` runs negotiation `id`.
  void remember(const std::string& id, const std::string& address);

  /// Forgets negotiation `id` (it ended, or its node answered an error).
  void forget(const std::string& id);

  /// Forgets every negotiation of the node at `address` (its connection or
  /// the node is lost; a survivor will run them).
  void forget_node(const std::string& address);

  std::size_t size() const { return by_id_.size(); }

private:
  std::size_t limit_;
  std::unordered_map<std::string, std::string> by_id_;
};

} // namespace parley::actors::gateway
