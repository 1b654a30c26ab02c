#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "caf/fwd.hpp"

#include "actors/negotiation/interface.hpp"

namespace parley::actors::negotiation {

/// The negotiation actors of one node that have no negotiation at the
/// moment, for its rooms to open the next one in.
///
/// Why not an actor per negotiation, spawned and ended: CAF 0.17 makes every
/// actor that ends call into its clock thread (a lock, and a wake-up of that
/// thread), which at tens of thousands of negotiations a second cost a fifth
/// of the CPU. A negotiation actor whose negotiation ends goes back here and
/// the next one opens in it, so a node keeps about as many negotiation
/// actors as it has negotiations running.
///
/// Shared by the rooms and negotiation actors of a node, which call it from
/// their own threads: a short lock guards the list.
class pool : public std::enable_shared_from_this<pool> {
public:
  explicit pool(caf::actor_system& sys) : sys_(sys) {}

  /// An idle negotiation actor, or a new one.
  negotiation_actor acquire();

  /// `x`'s negotiation ended: it can take the next one.
  void release(negotiation_actor x);

  /// Stops the idle actors (their node is stopping).
  void clear();

private:
  caf::actor_system& sys_;
  std::mutex mtx_;
  std::vector<negotiation_actor> idle_;
};

} // namespace parley::actors::negotiation
