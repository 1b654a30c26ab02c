// custom_brain: a brain of this program's own, a time-based concession
// strategy, bargains for a freelancer against a client's rule agent (one of
// Parley's brains) in one room. Built against an installed Parley only
// (README.md); prints the negotiation's events and its outcome, and exits 0
// once the negotiation has ended (accepted, rejected or expired), 1 if it has
// not within 10 s.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "caf/actor_cast.hpp"
#include "caf/actor_system.hpp"
#include "caf/actor_system_config.hpp"
#include "caf/scoped_actor.hpp"

#include "actors/agent/brain.hpp"
#include "actors/agent/money.hpp"
#include "cli/event_printer.hpp"
#include "messages/commands.hpp"
#include "messages/events.hpp"
#include "messages/type_ids.hpp"
#include "runtime/node.hpp"
#include "runtime/version.hpp"
#include "runtime/world.hpp"

namespace {

using parley::actors::agent::format_amount;
using parley::actors::agent::offer_context;
using parley::messages::decision;
using parley::messages::reply_action;

/// A time-dependent concession tactic (Faratin, Sierra and Jennings, 1998).
/// The amount the brain aims at moves from `opening` in the first round to
/// `reservation` at the negotiation's round limit, as t^(1/beta) of the way
/// with t = (round − 1) / (max_rounds − 1): beta < 1 holds out and concedes
/// late (Boulware), beta > 1 concedes early (conceder), 1 evenly. Whether it
/// wants more or less follows from the two amounts: a seller opens above its
/// reservation, a buyer below.
///
/// An offer is accepted when it is at least as good as the counter the brain
/// would make next; in the last round (where a counter would expire the
/// negotiation) when it is at least as good as the reservation, otherwise
/// rejected. Counters copy the offer (escrow, description, terms) with the
/// aimed amount. An offer in another currency is rejected.
class time_concession_brain final : public parley::actors::agent::brain {
public:
  time_concession_brain(std::int64_t opening, std::int64_t reservation, double beta,
                        std::string currency)
      : opening_(opening), reservation_(reservation), beta_(beta),
        currency_(std::move(currency)) {}

  std::optional<decision> decide(const offer_context& offer) override {
    decision d;
    const auto amount = offer.incoming.amount;
    if (offer.incoming.currency != currency_) {
      d.action = reply_action::reject;
      d.reason = "Only " + currency_ + " is accepted";
      return d;
    }
    if (offer.round >= offer.max_rounds) {
      d.action = at_least_as_good(amount, reservation_) ? reply_action::accept
                                                        : reply_action::reject;
      d.reason = "Last round; my reservation is " + money(reservation_);
      return d;
    }
    const auto next = aim(offer.round + 1, offer.max_rounds);
    if (at_least_as_good(amount, next)) {
      d.action = reply_action::accept;
      return d;
    }
    d.action = reply_action::counter;
    d.proposal = offer.incoming;
    d.proposal.amount = next;
    d.reason = "Countering at " + money(next) + ": time-based concession, round " +
               std::to_string(offer.round + 1) + " of " +
               std::to_string(offer.max_rounds);
    return d;
  }

private:
  /// The amount aimed at in `round` of `max_rounds`.
  std::int64_t aim(std::int32_t round, std::int32_t max_rounds) const {
    const double t = max_rounds <= 1
                         ? 1.0
                         : std::clamp(static_cast<double>(round - 1) /
                                          static_cast<double>(max_rounds - 1),
                                      0.0, 1.0);
    const double moved =
        std::pow(t, 1.0 / beta_) * static_cast<double>(reservation_ - opening_);
    return opening_ + static_cast<std::int64_t>(std::llround(moved));
  }

  bool at_least_as_good(std::int64_t amount, std::int64_t than) const {
    return opening_ >= reservation_ ? amount >= than : amount <= than;
  }

  std::string money(std::int64_t amount) const {
    return format_amount(amount, currency_);
  }

  std::int64_t opening_;
  std::int64_t reservation_;
  double beta_;
  std::string currency_;
};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

} // namespace

int main() {
  using namespace parley;
  std::cout << "custom_brain against Parley " << runtime::version << '\n';
  caf::actor_system_config cfg;
  runtime::configure(cfg, runtime::system_options{});
  caf::actor_system sys{cfg};
  runtime::world w{sys, config::settings{}};
  caf::scoped_actor self{sys};
  w.events().subscribe(messages::topic_set::matching("negotiation.*") |
                           messages::topic_set::of(messages::topic::error),
                       caf::actor_cast<actors::subscriber_actor>(self));

  // The client: Parley's rule brain (balanced style, up to £1,400.00, escrow
  // above £500.00). The freelancer: the brain above, opening at £1,500.00,
  // never below £1,100.00, Boulware (beta 0.5).
  messages::agent_spec client;
  client.id = "client";
  client.profile.role = "client";
  client.profile.preferences.max_auto_approve_amount = 140000;
  auto client_agent = w.add_agent(client);
  auto freelancer_agent =
      w.add_agent("freelancer",
                  std::make_unique<time_concession_brain>(150000, 110000, 0.5, "GBP"));
  auto studio = w.room_spec(
      "studio",
      {{"client", client_agent, false}, {"freelancer", freelancer_agent, false}}, 1);
  auto room = w.add_rooms({std::move(studio)}).front();

  messages::proposal opening;
  opening.amount = 100000;
  opening.currency = "GBP";
  opening.escrow = true;
  opening.description = "Website redesign, delivered in 3 weeks";
  self->send(client_agent,
             messages::initiate_negotiation{room, "freelancer", opening, {}, {}});

  // Every event as a timeline line, until the negotiation ends or 10 s pass.
  const auto start = now_ms();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  cli::event_printer printer{cli::output_format::timeline, std::cout, start};
  std::optional<messages::negotiation_record> outcome;
  for (bool waiting = true; waiting && !outcome;) {
    const auto left = std::max(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   deadline - std::chrono::steady_clock::now()),
                               std::chrono::milliseconds{0});
    self->receive(
        [&](const messages::negotiation_event& x) {
          printer.print(x);
          if (messages::is_terminal(x) && x.record)
            outcome = *x.record;
        },
        [&](const messages::problem_event& x) { printer.print(x); },
        caf::after(left) >> [&] { waiting = false; });
  }
  w.stop();

  if (!outcome) {
    std::cout << "outcome: none within 10 s\n";
    return 1;
  }
  // Agreed: the deal; rejected or expired: the last offer on the table.
  const auto& r = *outcome;
  const auto& last = r.final_proposal ? *r.final_proposal : r.current_proposal;
  std::cout << "outcome: " << messages::to_string(r.status) << " at "
            << format_amount(last.amount, last.currency) << " after " << r.rounds.size()
            << " rounds" << (r.status_reason.empty() ? "" : ": " + r.status_reason)
            << '\n';
  return 0;
}
