#include "actors/ballot/rules.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "messages/time_limits.hpp"

namespace parley::actors::ballot {

using messages::ballot_outcome;
using messages::ballot_spec;
using messages::ballot_status;
using messages::ballot_strategy;
using messages::error_code;

std::int64_t weight_of(const std::string& role) {
  if (role == "architect")
    return 3;
  if (role == "strategist")
    return 2;
  return 1;
}

bool can_veto(const std::string& role) {
  return role == "guardian" || role == "strategist";
}

namespace {

ballot_outcome make_outcome(const ballot_spec& spec, const tally& t, std::string winner,
                            std::string reason) {
  ballot_outcome x;
  x.status = winner.empty() ? ballot_status::rejected : ballot_status::approved;
  x.winner = std::move(winner);
  x.tallies = t.per_option;
  if (spec.strategy == ballot_strategy::veto)
    x.tallies[veto_option] = t.vetoes;
  x.eligible = static_cast<std::int32_t>(spec.voters.size());
  x.voted = t.voted;
  x.reason = std::move(reason);
  return x;
}

std::optional<ballot_outcome> judge_majority(const ballot_spec& spec, const tally& t,
                                             std::int32_t remaining) {
  auto n = static_cast<std::int64_t>(spec.voters.size());
  for (const auto& [option, count] : t.per_option)
    if (option != reject_option && count * 2 > n)
      return make_outcome(spec, t, option,
                          option + ": " + std::to_string(count) + " of " +
                              std::to_string(n) + " eligible votes, more than half");
  for (const auto& [option, count] : t.per_option)
    if (option != reject_option && (count + remaining) * 2 > n)
      return std::nullopt; // still reachable
  return make_outcome(spec, t, {},
                      "no option has more than half of " + std::to_string(n) +
                          " eligible votes");
}

std::optional<ballot_outcome> judge_unanimous(const ballot_spec& spec, const tally& t,
                                              std::int32_t remaining, bool final) {
  auto n = static_cast<std::int64_t>(spec.voters.size());
  std::set<std::string> chosen;
  for (const auto& [option, count] : t.per_option)
    if (count > 0)
      chosen.insert(option);
  if (chosen.count(reject_option) > 0)
    return make_outcome(spec, t, {}, "a voter chose reject");
  if (chosen.size() > 1)
    return make_outcome(spec, t, {}, "dissent: voters chose different options");
  if (remaining == 0 && t.voted == n && chosen.size() == 1)
    return make_outcome(spec, t, *chosen.begin(),
                        *chosen.begin() + ": all " + std::to_string(n) +
                            " eligible voters agree");
  if (!final)
    return std::nullopt;
  return make_outcome(spec, t, {},
                      std::to_string(n - t.voted) + " eligible voter(s) did not vote");
}

std::optional<ballot_outcome> judge_weighted(const ballot_spec& spec, const tally& t,
                                             std::int64_t remaining_weight) {
  auto best_other = [&](const std::string& option) {
    std::int64_t best = 0;
    for (const auto& [other, w] : t.per_option)
      if (other != option)
        best = std::max(best, w);
    return best;
  };
  for (const auto& [option, w] : t.per_option)
    if (option != reject_option && w > best_other(option) + remaining_weight)
      return make_outcome(spec, t, option,
                          option + ": highest weight " + std::to_string(w));
  for (const auto& [option, w] : t.per_option)
    if (option != reject_option && w + remaining_weight > best_other(option))
      return std::nullopt; // could still lead alone
  if (t.voted == 0)
    return make_outcome(spec, t, {}, "nobody voted");
  // Either reject leads, or the highest weight is shared: a tie rejects.
  std::int64_t top = 0;
  for (const auto& entry : t.per_option)
    top = std::max(top, entry.second);
  std::string tied;
  for (const auto& [option, w] : t.per_option)
    if (w == top)
      tied += (tied.empty() ? "" : ", ") + option;
  if (tied.find(',') == std::string::npos)
    return make_outcome(spec, t, {},
                        "reject has the highest weight " + std::to_string(top));
  return make_outcome(spec, t, {},
                      "weighted tie between " + tied + " at " + std::to_string(top));
}

} // namespace

std::optional<ballot_outcome> judge(const ballot_spec& spec, const tally& t,
                                    std::int32_t remaining,
                                    std::int64_t remaining_weight,
                                    std::int32_t remaining_vetoers, bool final) {
  if (final) {
    remaining = 0;
    remaining_weight = 0;
    remaining_vetoers = 0;
  }
  switch (spec.strategy) {
  case ballot_strategy::majority:
    return judge_majority(spec, t, remaining);
  case ballot_strategy::unanimous:
    return judge_unanimous(spec, t, remaining, final);
  case ballot_strategy::weighted:
    return judge_weighted(spec, t, remaining_weight);
  case ballot_strategy::veto: {
    if (t.vetoes > 0)
      return make_outcome(spec, t, {}, "vetoed by " + t.first_vetoer);
    auto x = judge_majority(spec, t, remaining);
    if (x && x->status == ballot_status::approved && remaining_vetoers > 0)
      return std::nullopt; // a guardian or strategist may still veto
    return x;
  }
  }
  return std::nullopt;
}

std::string validate(const ballot_spec& x) {
  if (x.id.empty())
    return "id must not be empty";
  if (x.options.size() < 2)
    return "options must name at least two options";
  std::set<std::string> options;
  for (const auto& o : x.options) {
    if (o.empty() || o == veto_option)
      return "options must be non-empty and must not be \"veto\"";
    if (!options.insert(o).second)
      return "options must be distinct, \"" + o + "\" appears twice";
  }
  if (x.strategy == ballot_strategy::veto && options.count(reject_option) == 0)
    return "a veto ballot needs a \"reject\" option";
  if (x.voters.empty())
    return "voters must not be empty";
  std::set<std::string> voters;
  for (const auto& v : x.voters) {
    if (v.agent_id.empty())
      return "voter ids must not be empty";
    if (!voters.insert(v.agent_id).second)
      return "voter \"" + v.agent_id + "\" appears twice";
  }
  if (auto why = messages::check_range(x.window_ms, 1, messages::max_delay_ms);
      !why.empty())
    return "window_ms " + why;
  return {};
}

rules::rules(ballot_spec x) : spec_(std::move(x)) {
  for (std::size_t i = 0; i < spec_.voters.size(); ++i) {
    const auto& v = spec_.voters[i];
    eligible_.emplace(v.agent_id, i);
    remaining_weight_ += weight_of(v.role);
    if (can_veto(v.role))
      ++remaining_vetoers_;
  }
  for (const auto& o : spec_.options)
    tally_.per_option.emplace(o, 0);
}

bool rules::finished() const noexcept {
  return outcome_.has_value() &&
         (closed_ || votes_.size() + late_.size() == spec_.voters.size());
}

void rules::on_vote(const messages::vote& x, effects& out) {
  auto refuse = [&](error_code code, std::string message) {
    out.refused = refusal{code, std::move(message)};
  };
  if (x.ballot_id != spec_.id)
    return refuse(error_code::invalid_vote,
                  "vote for ballot \"" + x.ballot_id + "\" sent to " + spec_.id);
  auto i = eligible_.find(x.voter);
  if (i == eligible_.end())
    return refuse(error_code::not_eligible,
                  x.voter + " is not an eligible voter of " + spec_.id);
  if (votes_.count(x.voter) > 0)
    return refuse(error_code::already_cast,
                  x.voter + " already voted on " + spec_.id + "; votes are immutable");
  if (outcome_) {
    late_.insert(x.voter);
    refuse(error_code::voting_closed, spec_.id + " is already resolved");
    out.finished = finished();
    return;
  }
  const auto& role = spec_.voters[i->second].role;
  auto is_veto = x.option == veto_option;
  if (is_veto && spec_.strategy != ballot_strategy::veto)
    return refuse(error_code::invalid_vote, "veto is only possible in a veto ballot");
  if (!is_veto && tally_.per_option.count(x.option) == 0)
    return refuse(error_code::invalid_vote,
                  "\"" + x.option + "\" is not an option of " + spec_.id);
  votes_.emplace(x.voter, x.option);
  ++tally_.voted;
  auto weight = weight_of(role);
  remaining_weight_ -= weight;
  if (can_veto(role))
    --remaining_vetoers_;
  if (is_veto && can_veto(role)) {
    if (tally_.vetoes++ == 0)
      tally_.first_vetoer = x.voter + " (" + role + ")";
  } else {
    // A veto without the right to veto is an ordinary no.
    const auto& option = is_veto ? reject_option : x.option;
    tally_.per_option[option] +=
        spec_.strategy == ballot_strategy::weighted ? weight : 1;
  }
  out.accepted = x;
  resolve(false, out);
}

void rules::on_window_closed(effects& out) {
  closed_ = true;
  if (!outcome_)
    resolve(true, out);
  out.finished = finished();
}

void rules::resolve(bool final, effects& out) {
  auto remaining = static_cast<std::int32_t>(spec_.voters.size()) - tally_.voted;
  auto x =
      judge(spec_, tally_, remaining, remaining_weight_, remaining_vetoers_, final);
  if (x) {
    x->early = !final && !closed_;
    outcome_ = x;
    out.resolved = std::move(x);
  }
  out.finished = finished();
}

ballot_outcome resolve_offline(const ballot_spec& spec,
                               const std::map<std::string, std::string>& votes) {
  rules r{spec};
  for (const auto& [voter, option] : votes) {
    effects fx;
    r.on_vote(messages::vote{spec.id, voter, option}, fx);
  }
  effects fx;
  r.on_window_closed(fx);
  auto x = *r.outcome();
  x.early = false;
  return x;
}

} // namespace parley::actors::ballot
