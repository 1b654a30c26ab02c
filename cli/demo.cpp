#include "cli/demo.hpp"

#include <ostream>

namespace parley::cli {

namespace {

constexpr const char* demo_json = R"({
  "agents": [
    {
      "id": "client",
      "display_name": "Alice Chen",
      "role": "client",
      "brain": "rule",
      "preferences": {
        "max_auto_approve_amount": 150000,
        "preferred_currency": "GBP",
        "escrow_preference": "above_threshold",
        "escrow_threshold": 50000,
        "negotiation_style": "balanced"
      }
    },
    {
      "id": "freelancer",
      "display_name": "Bob Okafor",
      "role": "freelancer",
      "brain": "rule",
      "preferences": {
        "max_auto_approve_amount": 500000,
        "preferred_currency": "GBP",
        "escrow_preference": "above_threshold",
        "escrow_threshold": 50000,
        "negotiation_style": "balanced"
      }
    }
  ],
  "rooms": [{"id": "studio", "participants": ["client", "freelancer"]}],
  "negotiations": [
    {
      "room": "studio",
      "at_ms": 0,
      "initiator": "client",
      "responder": "freelancer",
      "proposal": {
        "amount": 100000,
        "currency": "GBP",
        "escrow": true,
        "description": "Website redesign, delivered in 3 weeks",
        "terms": {"revisions": 2, "deadline_days": 21}
      }
    }
  ]
})";

} // namespace

scenario demo_scenario() {
  return parse_scenario(demo_json, "demo");
}

messages::run_summary run_demo(const config::settings& settings, output_format format,
                               std::uint64_t seed, std::ostream& out) {
  if (format == output_format::timeline)
    out << "Parley demo: Alice's agent (client) and Bob's agent (freelancer) "
           "negotiate\n"
           "a website redesign in room \"studio\". Both use the rule brain, balanced\n"
           "style; amounts are GBP, escrow above £500.00.\n\n";
  return run_scenario(demo_scenario(), settings,
                      run_options{false, seed, format, {}, {}, {}}, out);
}

} // namespace parley::cli
