#include "actors/agent/rule_brain.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

#include "actors/agent/money.hpp"

namespace parley::actors::agent {

using messages::bargaining_side;
using messages::negotiation_style;
using messages::reply_action;

namespace {

constexpr std::int64_t one_bp_basis = 10000;

enum class rounding { down, up };

/// Returns `amount · bp / 10000` for a non-negative `amount`, rounded as asked;
/// saturates at the largest int64 instead of overflowing.
std::int64_t scale_bp(std::int64_t amount, std::int64_t bp, rounding mode) {
  constexpr auto largest = std::numeric_limits<std::int64_t>::max();
  auto whole = amount / one_bp_basis;
  if (whole > 0 && bp > largest / whole)
    return largest;
  auto head = whole * bp;
  auto carry = mode == rounding::up ? one_bp_basis - 1 : 0;
  auto tail = ((amount % one_bp_basis) * bp + carry) / one_bp_basis;
  return head > largest - tail ? largest : head + tail;
}

/// "15%", "12.5%": `tenths` of a percent, without a trailing ".0".
std::string percent(std::int64_t tenths) {
  auto text = std::to_string(tenths / 10);
  if (tenths % 10 != 0)
    text += "." + std::to_string(tenths % 10);
  return text + "%";
}

bool contains_any(const std::string& text, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* word) {
    return text.find(word) != std::string::npos;
  });
}

std::string money(const messages::agent_preferences& p, std::int64_t amount) {
  return format_amount(amount, p.preferred_currency);
}

/// States the escrow rule of `p` for a deal that `required` escrow or not.
std::string escrow_rule(const messages::agent_preferences& p, bool required) {
  using messages::escrow_preference;
  if (p.escrow_preference == escrow_preference::always)
    return "escrow is always required";
  if (p.escrow_preference == escrow_preference::never)
    return "escrow is never used";
  return (required ? "escrow is required above " : "escrow is only used above ") +
         money(p, p.escrow_threshold);
}

/// Returns why `amount` breaks the amount rules of `p` on `side`: above the
/// auto-approve limit, or past the reservation price (below a seller's floor,
/// above a buyer's ceiling lower than that limit).
std::optional<std::string> broken_amount(const messages::agent_preferences& p,
                                         bargaining_side side, std::int64_t amount) {
  if (amount > p.max_auto_approve_amount)
    return money(p, amount) + " is above the auto-approve limit of " +
           money(p, p.max_auto_approve_amount);
  if (!messages::past_reservation(p, side, amount))
    return std::nullopt;
  auto limit = messages::reservation_limit(p, side);
  if (side == bargaining_side::seller)
    return money(p, amount) + " is below my floor of " + money(p, limit);
  return money(p, amount) + " is above my ceiling of " + money(p, limit);
}

/// Returns whether `x` is within the tolerance of `style` around `last`.
bool within_tolerance(bool buyer, const style_parameters& style, std::int64_t x,
                      std::int64_t last) {
  if (buyer)
    return x <= scale_bp(last, one_bp_basis + style.tolerance_bp, rounding::down);
  return x >= scale_bp(last, one_bp_basis - style.tolerance_bp, rounding::up);
}

/// Returns the uncapped counter amount (step 4 of the rule brain's doc).
std::int64_t candidate_for(bool buyer, const style_parameters& style,
                           std::int64_t distance_bp, std::int64_t x,
                           std::optional<std::int64_t> my_last) {
  if (buyer) {
    auto candidate = scale_bp(x, one_bp_basis - distance_bp, rounding::down);
    if (!my_last)
      return candidate;
    auto last = *my_last;
    if (x <= last)
      return std::max(candidate, last);
    return std::max(candidate,
                    last + scale_bp(x - last, style.concession_bp, rounding::up));
  }
  auto candidate = scale_bp(x, one_bp_basis + distance_bp, rounding::up);
  if (!my_last)
    return candidate;
  auto last = *my_last;
  if (x >= last)
    return std::min(candidate, last);
  return std::min(candidate,
                  last - scale_bp(last - x, style.concession_bp, rounding::up));
}

messages::decision accept(const messages::agent_preferences& p, std::int64_t amount,
                          const std::string& why) {
  return decision_of(reply_action::accept,
                     "Accepting " + money(p, amount) + ": " + why);
}

messages::decision counter_with(messages::proposal proposal, std::string reason) {
  auto result = decision_of(reply_action::counter, std::move(reason));
  result.proposal = std::move(proposal);
  return result;
}

} // namespace

std::optional<std::string> broken_rule(const messages::agent_preferences& p,
                                       bargaining_side side,
                                       const messages::proposal& offer) {
  if (auto why = broken_amount(p, side, offer.amount))
    return why;
  auto required = messages::escrow_required(p, offer.amount);
  if (offer.escrow != required)
    return escrow_rule(p, required);
  return std::nullopt;
}

style_parameters parameters_for(negotiation_style style) {
  if (style == negotiation_style::aggressive)
    return {3000, 2000, 200, 2500};
  if (style == negotiation_style::conservative)
    return {500, 500, 1000, 5000};
  return {1500, 1000, 500, 4000};
}

std::int64_t counter_distance_bp(negotiation_style style, std::int32_t round,
                                 std::int32_t max_rounds) {
  auto params = parameters_for(style);
  auto last_step = std::max(max_rounds - 1, 0);
  auto step = std::clamp(round - 1, 0, last_step);
  return params.first_distance_bp -
         (params.first_distance_bp - params.last_distance_bp) * step /
             std::max(last_step, 1);
}

bargaining_side resolve_side(bargaining_side side, const std::string& role) {
  if (side != bargaining_side::from_role)
    return side;
  std::string lower = role;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (contains_any(lower, {"client", "buyer", "customer", "payer", "purchaser"}))
    return bargaining_side::buyer;
  if (contains_any(lower, {"freelancer", "seller", "provider", "contractor", "vendor",
                           "supplier", "payee"}))
    return bargaining_side::seller;
  return bargaining_side::buyer;
}

rule_brain::rule_brain(bargaining_side side, const messages::agent_profile& profile)
    : side_(resolve_side(side, profile.role)), profile_(profile) {}

std::optional<messages::decision> rule_brain::decide(const offer_context& offer) {
  const auto& p = profile_.preferences;
  const auto& in = offer.incoming;
  const auto x = in.amount;
  const auto my_last = offer.my_last_amount;
  const bool buyer = side_ == bargaining_side::buyer;
  if (in.currency != p.preferred_currency)
    return decision_of(reply_action::reject, "Only " + p.preferred_currency +
                                                 " is accepted, got " + in.currency);
  auto broken = broken_rule(p, side_, in);
  if (offer.round >= offer.max_rounds) {
    if (broken)
      return decision_of(reply_action::reject, *broken);
    return accept(p, x, "last round, and it meets my rules");
  }
  auto style = parameters_for(p.style);
  if (!broken && !my_last && p.style == negotiation_style::conservative)
    return accept(p, x, "conservative style takes a reasonable opening offer");
  if (!broken && my_last && within_tolerance(buyer, style, x, *my_last))
    return accept(p, x,
                  "within " + percent(style.tolerance_bp / 10) + " of my offer of " +
                      money(p, *my_last));
  auto distance = counter_distance_bp(p.style, offer.round, offer.max_rounds);
  auto uncapped = candidate_for(buyer, style, distance, x, my_last);
  // Within the amount rules: at most the auto-approve limit (a buyer's
  // ceiling lies at or below it), at least a seller's floor.
  auto limit = messages::reservation_limit(p, side_);
  auto candidate = std::min(uncapped, buyer ? limit : p.max_auto_approve_amount);
  if (!buyer)
    candidate = std::max(candidate, limit);
  auto counter = in;
  if (buyer ? candidate >= x : candidate <= x) {
    if (!broken)
      return accept(p, x, "as good as any counter I could make");
    // Only the escrow flag can be wrong unless a seller was offered more than
    // its limit; meet the amount with the right flag, if that changes anything.
    if (broken_amount(p, side_, x) || (my_last && *my_last == x))
      return decision_of(reply_action::reject, *broken);
    counter.escrow = messages::escrow_required(p, x);
    auto reason = "Countering at " + money(p, x) +
                  (counter.escrow ? " with escrow: " : " without escrow: ") + *broken;
    return counter_with(std::move(counter), std::move(reason));
  }
  if (broken && my_last && candidate == *my_last)
    return decision_of(reply_action::reject, *broken);
  counter.amount = candidate;
  counter.escrow = messages::escrow_required(p, candidate);
  auto gap = buyer ? x - candidate : candidate - x;
  auto tenths =
      std::llround(static_cast<double>(gap) * 1000.0 / static_cast<double>(x));
  auto reason = "Countering at " + money(p, candidate) + ": " +
                messages::to_string(p.style) + " style, " + percent(tenths) +
                (buyer ? " below" : " above") + " the offer";
  if (uncapped > candidate)
    reason += buyer && limit < p.max_auto_approve_amount
                  ? ", capped at my ceiling of " + money(p, limit)
                  : ", capped at the auto-approve limit of " +
                        money(p, p.max_auto_approve_amount);
  else if (uncapped < candidate)
    reason += ", raised to my floor of " + money(p, limit);
  if (counter.escrow != in.escrow)
    reason += counter.escrow ? ", with escrow" : ", without escrow";
  return counter_with(std::move(counter), std::move(reason));
}

} // namespace parley::actors::agent
