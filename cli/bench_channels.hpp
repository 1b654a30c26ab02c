#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace parley::cli {

/// `parley bench --workload channels`: `n` channels (docs/protocols/channels.md), each
/// put to 10 rule-brain members (actors/channel/member_brain.hpp) drawn from a pool of
/// 1000: channel i asks the 10 consecutive members from (7 i) mod 1000. Member j has
/// the capability `j % 5` of five, every channel asks for all five (so every candidate
/// takes part), and member j accepts the proposal from round 1 when j % 10 < 6, from
/// round 2 when j % 10 = 6, from round 3 when j % 10 is 7 or 8, from round 5 when j %
/// 10 = 9. Any 10 consecutive members hold each j % 10 once, so every channel sees 60 %
/// accept in round 1 and 70 % in round 2 (between the thresholds: a new round) and 90 %
/// in round 3: finalized at round 3, after 120 channel-member messages (per round 10
/// demand_offers, 10 offer_responses, 10 proposal_reviews, 10 proposal_feedbacks).
///
/// All channels are opened at once, like W1's negotiations; the clock runs
/// from before the first is opened to the last terminal event. Every outcome
/// is checked (finalized, at round 3, with 10 assignments: 120 messages per
/// channel, which messages_per_s counts), as is the absence of problems on
/// the bus. Only the terminal events reach the bench (as a channel's
/// reporter); nobody subscribes to the others, so none is published. Prints one line,
/// `CHANNELS N=<n> seconds=<s> channels_per_s=<x> messages_per_s=<x>
/// final_p50_ms=<ms> final_p99_ms=<ms> cpu_s=<s> process_s=<s>
/// peak_rss_kb=<VmHWM> wrong=<k>` (or a JSON object with `json`), where the
/// time to a final state runs from a channel's opening to its terminal
/// event, and ends the process like `run_bench`: exit code 0, or 1 if any
/// outcome was wrong or missing. Returns (1) only when `n` is not positive
/// or the store cannot be opened (said on `out`).
///
/// With a `store` (a path, sqlite:PATH or postgresql://…), every channel's
/// row and events are written to it too (the store subscribes to the towow.*
/// topics, so every event is built and published), and the clock stops once
/// the store committed the last: the line then has `store=<kind>`.
int run_channel_bench(std::int64_t n, bool json, const std::string& store,
                      std::ostream& out);

} // namespace parley::cli
