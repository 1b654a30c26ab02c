#include "actors/llm/validation.hpp"

#include <nlohmann/json.hpp>

#include "actors/agent/money.hpp"

namespace parley::actors::llm {

using nlohmann::json;

namespace {

std::string money(std::int64_t amount, const std::string& currency) {
  return agent::format_amount(amount, currency);
}

/// Returns the model's error for `amount` past the reservation price of `side`
/// (docs/protocols/bilateral.md, "Reservation prices"), or an empty string.
std::string reservation_error(const char* what, std::int64_t amount,
                              const std::string& currency,
                              const messages::agent_preferences& prefs,
                              messages::bargaining_side side) {
  if (!messages::past_reservation(prefs, side, amount))
    return {};
  auto limit = money(messages::reservation_limit(prefs, side), currency);
  if (side == messages::bargaining_side::seller)
    return std::string{"Error: "} + what + money(amount, currency) +
           ": below your user's floor of " + limit;
  return std::string{"Error: "} + what + money(amount, currency) +
         ": above your user's ceiling of " + limit;
}

/// Reads a proposal-shaped object on top of `base`.
checked<messages::proposal> read_proposal(const json& input,
                                          const messages::proposal& base,
                                          const messages::agent_preferences& prefs,
                                          messages::bargaining_side side) {
  checked<messages::proposal> r;
  r.value = base;
  if (!input.is_object()) {
    r.error = "Error: the proposal must be a JSON object";
    return r;
  }
  auto amount = input.find("amount");
  if (amount == input.end() || !amount->is_number_integer()) {
    r.error = "Error: amount must be a positive integer in minor units";
    return r;
  }
  if (amount->is_number_unsigned() &&
      amount->get<std::uint64_t>() >
          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    r.error = "Error: amount is too large";
    return r;
  }
  auto value = amount->get<std::int64_t>();
  if (value <= 0) {
    r.error = "Error: amount must be a positive integer in minor units";
    return r;
  }
  r.value.amount = value;
  if (auto c = input.find("currency"); c != input.end() && !c->is_null()) {
    if (!c->is_string() || !messages::is_currency_code(c->get<std::string>())) {
      r.error = "Error: currency must be an ISO 4217 code such as \"GBP\"";
      return r;
    }
    r.value.currency = c->get<std::string>();
  }
  if (auto d = input.find("description"); d != input.end() && !d->is_null()) {
    if (!d->is_string()) {
      r.error = "Error: description must be a string";
      return r;
    }
    r.value.description = d->get<std::string>();
  }
  if (auto e = input.find("escrow");
      e != input.end() && !e->is_null() && !e->is_boolean()) {
    r.error = "Error: escrow must be true or false";
    return r;
  }
  if (r.value.currency != prefs.preferred_currency) {
    r.error = "Error: your user only deals in " + prefs.preferred_currency;
    return r;
  }
  if (value > prefs.max_auto_approve_amount) {
    r.error = "Error: " + money(value, r.value.currency) +
              " is above your user's auto-approve limit of " +
              money(prefs.max_auto_approve_amount, r.value.currency);
    return r;
  }
  r.error = reservation_error("cannot propose ", value, r.value.currency, prefs, side);
  if (!r.ok())
    return r;
  r.value.escrow = messages::escrow_required(prefs, value);
  return r;
}

} // namespace

checked<messages::decision> check_evaluation(const json& input,
                                             const messages::proposal& offer,
                                             const messages::agent_preferences& prefs,
                                             messages::bargaining_side side) {
  checked<messages::decision> r;
  if (!input.is_object()) {
    r.error = "Error: the input must be a JSON object with decision and reason";
    return r;
  }
  auto decision = input.find("decision");
  if (decision == input.end() || !decision->is_string()) {
    r.error = "Error: decision must be one of accept, counter, reject";
    return r;
  }
  auto reason = input.find("reason");
  if (reason != input.end() && !reason->is_null()) {
    if (!reason->is_string()) {
      r.error = "Error: reason must be a string";
      return r;
    }
    r.value.reason = reason->get<std::string>();
  }
  auto what = decision->get<std::string>();
  if (what == "accept") {
    if (offer.currency != prefs.preferred_currency) {
      r.error = "Error: cannot accept: your user only deals in " +
                prefs.preferred_currency + ", the offer is in " + offer.currency;
      return r;
    }
    if (offer.amount > prefs.max_auto_approve_amount) {
      r.error = "Error: cannot accept " + money(offer.amount, offer.currency) +
                ": above your user's auto-approve limit of " +
                money(prefs.max_auto_approve_amount, offer.currency) +
                "; counter or reject instead";
      return r;
    }
    r.error =
        reservation_error("cannot accept ", offer.amount, offer.currency, prefs, side);
    if (!r.ok()) {
      r.error += "; counter or reject instead";
      return r;
    }
    if (offer.escrow != messages::escrow_required(prefs, offer.amount)) {
      r.error = std::string{"Error: cannot accept: your user's escrow preference "} +
                (offer.escrow ? "forbids" : "requires") + " escrow for this amount";
      return r;
    }
    r.value.action = messages::reply_action::accept;
    return r;
  }
  if (what == "reject") {
    r.value.action = messages::reply_action::reject;
    return r;
  }
  if (what != "counter") {
    r.error = "Error: unknown decision \"" + what + "\"; use accept, counter or reject";
    return r;
  }
  auto counter = input.find("counter_proposal");
  if (counter == input.end() || counter->is_null()) {
    r.error = "Error: a counter needs counter_proposal with an amount";
    return r;
  }
  auto p = read_proposal(*counter, offer, prefs, side);
  if (!p.ok()) {
    r.error = p.error;
    return r;
  }
  r.value.action = messages::reply_action::counter;
  r.value.proposal = std::move(p.value);
  return r;
}

checked<messages::proposal> check_proposal(const json& input,
                                           const messages::agent_preferences& prefs,
                                           messages::bargaining_side side) {
  messages::proposal base;
  base.currency = prefs.preferred_currency;
  return read_proposal(input, base, prefs, side);
}

} // namespace parley::actors::llm
