#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/agent/brain.hpp"
#include "messages/agent_profile.hpp"
#include "messages/decision.hpp"

namespace parley::actors::agent {

/// Answers offers from a fixed list of replies, for scenarios and tests.
///
/// Each call to `decide` (one per incoming proposal or counter) consumes the
/// next reply, in order:
/// - `counter` proposes `apply_patch(incoming, patch)`: fields the patch leaves
///   empty are copied from the offer being answered (no patch: the offer
///   itself);
/// - `accept`, `reject` and `silent` carry only the reply's reason;
/// - every answer carries the reply's `delay_ms`.
/// When the list is used up, every further offer gets `silent`.
class script_brain final : public brain {
public:
  /// Builds a brain that replies with `script`, one entry per offer.
  explicit script_brain(std::vector<messages::script_reply> script);

  /// Returns the next scripted reply to `offer`, or `silent` once the script
  /// is used up; never nullopt.
  std::optional<messages::decision> decide(const offer_context& offer) override;

  /// Returns how many scripted replies are left.
  std::size_t remaining() const noexcept { return script_.size() - next_; }

private:
  /// What a reply carries besides its action, amount and delay: most
  /// scripted replies carry neither, so it is kept apart.
  struct extras {
    std::string reason;
    /// Counters only: a patch that sets more than the amount.
    std::optional<messages::proposal_patch> patch;
  };

  /// One scripted reply, 32 bytes (a load test holds millions): most scripts
  /// only set an amount.
  struct step {
    /// Counters only: the patch's amount, when that is all the patch sets.
    std::int64_t amount = 0;
    std::int64_t delay_ms = 0;
    std::unique_ptr<const extras> more;
    messages::reply_action action = messages::reply_action::silent;
    bool sets_amount = false;
  };
  static step compact(messages::script_reply x);

  std::vector<step> script_;
  std::size_t next_ = 0;
};

} // namespace parley::actors::agent
