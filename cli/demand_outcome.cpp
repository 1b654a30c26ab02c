#include "cli/demand_outcome.hpp"

#include <algorithm>

namespace parley::cli {

namespace {

std::string joined(std::vector<std::string> xs) {
  std::sort(xs.begin(), xs.end());
  std::string out = "[";
  for (std::size_t i = 0; i < xs.size(); ++i)
    out += (i == 0 ? "" : ", ") + xs[i];
  return out + "]";
}

} // namespace

std::vector<std::string> confirmed_participants(const messages::channel_outcome& x) {
  std::vector<std::string> out;
  if (!x.proposal)
    return out;
  if (x.proposal->is_forced)
    return x.proposal->confirmed_participants;
  for (const auto& a : x.proposal->assignments)
    if (a.is_confirmed)
      out.push_back(a.agent_id);
  return out;
}

void count_demand(demand_summary& summary, const messages::demand_view& view) {
  using status = messages::demand_status;
  auto bump = [](status s, std::int64_t& finalized, std::int64_t& forced,
                 std::int64_t& failed) {
    if (s == status::finalized)
      ++finalized;
    else if (s == status::force_finalized)
      ++forced;
    else if (s == status::failed)
      ++failed;
  };
  bump(view.status, summary.demands_finalized, summary.demands_force_finalized,
       summary.demands_failed);
  for (const auto& c : view.channels) {
    ++summary.channels;
    bump(c.status, summary.channels_finalized, summary.channels_force_finalized,
         summary.channels_failed);
  }
}

std::vector<std::string> check_expectation(const demand_expectation& expect,
                                           const messages::demand_view& view,
                                           std::int32_t rounds) {
  std::vector<std::string> out;
  auto fail = [&](const std::string& what) {
    out.push_back("demand " + view.demand_id + ": " + what);
  };
  const messages::channel_outcome* top =
      view.channels.empty() ? nullptr : &view.channels.front();
  if (view.status != expect.status)
    fail("expected status " + messages::to_string(expect.status) + ", got " +
         messages::to_string(view.status) +
         (top && !top->reason.empty() ? " (" + top->reason + ")" : ""));
  if (expect.reason && (!top || top->reason != *expect.reason))
    fail("expected reason " + *expect.reason + ", got " +
         (top && !top->reason.empty() ? top->reason : std::string{"none"}));
  if (expect.confirmed) {
    auto got = top ? confirmed_participants(*top) : std::vector<std::string>{};
    if (joined(got) != joined(*expect.confirmed))
      fail("expected confirmed participants " + joined(*expect.confirmed) + ", got " +
           joined(got));
  }
  if (expect.rounds && *expect.rounds != rounds)
    fail("expected " + std::to_string(*expect.rounds) + " round(s), got " +
         std::to_string(rounds));
  auto subchannels =
      static_cast<std::int32_t>(view.channels.empty() ? 0 : view.channels.size() - 1);
  if (expect.subchannels && *expect.subchannels != subchannels)
    fail("expected " + std::to_string(*expect.subchannels) + " sub-channel(s), got " +
         std::to_string(subchannels));
  return out;
}

std::string refused_expectation(const std::string& demand, const std::string& why) {
  return "demand " + demand + ": expected it to end, but it was refused: " + why;
}

} // namespace parley::cli
