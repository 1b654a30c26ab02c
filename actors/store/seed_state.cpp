#include "actors/store/seed_state.hpp"

#include "messages/enum_names.hpp"

namespace parley::actors::store {

using messages::negotiation_status;

namespace {

constexpr const char* state_names[] = {"initiated", "proposed", "counter_proposed",
                                       "accepted",  "rejected", "expired"};

} // namespace

seed_state seed_state_of(negotiation_status status, std::size_t rounds) {
  switch (status) {
  case negotiation_status::accepted:
    return seed_state::accepted;
  case negotiation_status::rejected:
    return seed_state::rejected;
  case negotiation_status::expired:
    return seed_state::expired;
  case negotiation_status::proposed:
  case negotiation_status::countering:
    break;
  }
  if (rounds <= 1)
    return seed_state::initiated;
  return rounds == 2 ? seed_state::proposed : seed_state::counter_proposed;
}

seed_state seed_state_of(const messages::negotiation_record& record) {
  return seed_state_of(record.status, record.rounds.size());
}

negotiation_status status_of(seed_state x) {
  switch (x) {
  case seed_state::initiated:
    return negotiation_status::proposed;
  case seed_state::proposed:
  case seed_state::counter_proposed:
    return negotiation_status::countering;
  case seed_state::accepted:
    return negotiation_status::accepted;
  case seed_state::rejected:
    return negotiation_status::rejected;
  case seed_state::expired:
    break;
  }
  return negotiation_status::expired;
}

bool is_terminal(seed_state x) {
  return x == seed_state::accepted || x == seed_state::rejected ||
         x == seed_state::expired;
}

std::string to_string(seed_state x) {
  return messages::enum_name(state_names, x);
}

bool from_string(const std::string& text, seed_state& x) {
  return messages::enum_from_name(state_names, text, x);
}

} // namespace parley::actors::store
