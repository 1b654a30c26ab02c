#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "messages/consensus.hpp"
#include "actors/common/refusal.hpp"
#include "messages/error_code.hpp"

namespace parley::actors::ballot {

/// The option of dissent: a winning "reject" rejects the ballot.
inline const std::string reject_option = "reject";

/// The vote that blocks a veto ballot when a guardian or strategist casts it.
inline const std::string veto_option = "veto";

/// The weights (docs/protocols/ballots-and-auctions.md, "Roles"): architect 3,
/// strategist 2, every other role 1.
std::int64_t weight_of(const std::string& role);

/// A veto from a guardian or a strategist blocks a veto ballot
/// (docs/protocols/ballots-and-auctions.md, "Strategies").
bool can_veto(const std::string& role);

/// A refused vote: published as a problem, changes nothing.
using actors::refusal;

/// What one input asks the actor shell to do, in this order: publish the
/// refusal, publish the accepted vote, publish the result, quit.
struct effects {
  std::optional<refusal> refused;
  std::optional<messages::vote> accepted;
  std::optional<messages::ballot_outcome> resolved;
  /// Nothing more can reach this ballot usefully: the actor may quit.
  bool finished = false;
};

/// The votes so far, as the strategies see them.
struct tally {
  /// Per option of the spec (always present, maybe 0); votes, or weights for
  /// the weighted strategy. A veto without veto right counts for "reject".
  std::map<std::string, std::int64_t> per_option;
  /// Vetoes with veto right (veto strategy only).
  std::int64_t vetoes = 0;
  std::string first_vetoer;
  std::int32_t voted = 0;
};

/// Judges a ballot. Abstentions (voters who have not voted) are `remaining`;
/// with `final` set they are counted as the strategy counts abstentions;
/// otherwise the result is returned only if no way the remaining voters could
/// vote would change it (status and winner).
///
/// - majority: an option other than "reject" chosen by more than half of the
///   eligible voters wins; otherwise rejected (an exact 50 % rejects). An
///   abstention counts against every option.
/// - unanimous: every eligible voter chose the same option, not "reject";
///   any dissent, any "reject" and any abstention rejects.
/// - weighted: the option with the highest total weight of votes cast wins;
///   abstentions weigh nothing; a tie for the highest weight rejects (no
///   winner), as does a ballot nobody voted on or a "reject" lead.
/// - veto: one veto from a guardian or strategist rejects; otherwise as
///   majority (an abstention counts against).
std::optional<messages::ballot_outcome>
judge(const messages::ballot_spec& spec, const tally& t, std::int32_t remaining,
      std::int64_t remaining_weight, std::int32_t remaining_vetoers, bool final);

/// Returns an empty string if `x` can open (its window within
/// 1..messages::max_delay_ms), otherwise why not.
std::string validate(const messages::ballot_spec& x);

/// One ballot as a plain state machine: votes in, at most one result out.
/// No CAF, no clock: the window's timer is the shell's.
///
/// Votes are immutable. Refused with a coded error, changing nothing: a vote
/// from an agent not eligible (E022), a second vote (E023), a vote after the
/// ballot resolved (E024), an option not on the ballot or a veto outside a veto
/// ballot (E025). The ballot resolves early as soon as its outcome can no
/// longer change, and otherwise when the window closes (`on_window_closed`).
/// It is finished once resolved and either everyone voted (a vote after the
/// result counts, refused) or the window closed: until then late votes are
/// still answered with E024.
class rules {
public:
  /// `x` must be valid (see validate).
  explicit rules(messages::ballot_spec x);

  void on_vote(const messages::vote& x, effects& out);

  /// The voting window closed: resolves if still open.
  void on_window_closed(effects& out);

  const messages::ballot_spec& spec() const noexcept { return spec_; }
  bool resolved() const noexcept { return outcome_.has_value(); }
  const std::optional<messages::ballot_outcome>& outcome() const noexcept {
    return outcome_;
  }
  bool finished() const noexcept;

private:
  void resolve(bool final, effects& out);

  messages::ballot_spec spec_;
  /// Voter id -> index into spec_.voters.
  std::unordered_map<std::string, std::size_t> eligible_;
  std::unordered_map<std::string, std::string> votes_;
  /// Voters whose vote came after the result (refused): they have voted too.
  std::unordered_set<std::string> late_;
  tally tally_;
  std::int64_t remaining_weight_ = 0;
  std::int32_t remaining_vetoers_ = 0;
  bool closed_ = false;
  std::optional<messages::ballot_outcome> outcome_;
};

/// Resolves a ballot from complete information (the benchmark's and tests'
/// oracle): `votes` maps voters to options; voters missing from it abstain.
messages::ballot_outcome
resolve_offline(const messages::ballot_spec& spec,
                const std::map<std::string, std::string>& votes);

} // namespace parley::actors::ballot
