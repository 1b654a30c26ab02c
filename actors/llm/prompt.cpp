#include "actors/llm/prompt.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "actors/agent/money.hpp"

namespace parley::actors::llm {

using nlohmann::json;

namespace {

/// The seed prints `£${(x / 100).toFixed(2)}` whatever the currency.
std::string pounds(std::int64_t minor) {
  return agent::format_amount(minor, "GBP");
}

} // namespace

std::string system_prompt(const messages::agent_profile& profile,
                          messages::bargaining_side side) {
  const auto& p = profile.preferences;
  std::string custom;
  if (!profile.custom_instructions.empty())
    custom =
        "CUSTOM INSTRUCTIONS FROM YOUR USER:\n" + profile.custom_instructions + "\n";
  return "You are a negotiation agent for " + profile.display_name +
         " (role: " + profile.role +
         ").\n\n"
         "YOUR USER'S PREFERENCES:\n"
         "- Maximum auto-approve amount: " +
         pounds(p.max_auto_approve_amount) + "\n" +
         (side == messages::bargaining_side::seller
              ? "- Reservation price: never accept or propose below "
              : "- Reservation price: never accept or propose above ") +
         pounds(messages::reservation_limit(p, side)) +
         "\n"
         "- Preferred currency: " +
         p.preferred_currency +
         "\n"
         "- Escrow preference: " +
         to_string(p.escrow_preference) +
         "\n"
         "- Escrow threshold: " +
         pounds(p.escrow_threshold) +
         "\n"
         "- Negotiation style: " +
         to_string(p.style) + "\n\n" + custom +
         "\n"
         "YOUR RESPONSIBILITIES:\n"
         "1. Listen to the conversation and understand context\n"
         "2. When a negotiation is triggered, analyze the conversation and propose "
         "fair "
         "terms\n"
         "3. When receiving proposals, evaluate them against your user's preferences\n"
         "4. Negotiate on behalf of your user (accept, counter, or reject)\n"
         "5. Use send_message_to_user to keep your user informed of what you're doing\n"
         "\n"
         "NEGOTIATION RULES:\n"
         "- NEVER auto-approve amounts above your user's maxAutoApproveAmount\n"
         "- For amounts above the escrow threshold (when escrowPreference is "
         "\"above_threshold\"), always use escrow\n"
         "- If escrowPreference is \"always\", always use escrow regardless of amount\n"
         "- If escrowPreference is \"never\", never use escrow\n"
         "- Your negotiation style affects how aggressively you counter-propose:\n"
         "  - aggressive: counter with 20-30% lower amounts, push for better terms\n"
         "  - balanced: counter with 10-15% adjustments, seek fair middle ground\n"
         "  - conservative: accept reasonable proposals quickly, avoid prolonged "
         "negotiation\n"
         "\n"
         "COMMUNICATION:\n"
         "- Use send_message_to_user to inform your user about:\n"
         "  - What you detected in the conversation\n"
         "  - What you're proposing and why\n"
         "  - Incoming proposals and your assessment\n"
         "  - Final outcomes\n"
         "- Be concise but informative";
}

std::string proposal_text(const messages::proposal& p) {
  json terms = json::parse(p.terms.text, nullptr, false);
  if (terms.is_discarded())
    terms = json::object();
  json j = {{"amount", p.amount},
            {"currency", p.currency},
            {"escrow", p.escrow},
            {"description", p.description},
            {"terms", terms}};
  return j.dump(2);
}

std::string incoming_text(const messages::agent_proposal& x) {
  return "[INCOMING PROPOSAL from " + x.from_agent + "]\n" + proposal_text(x.proposal) +
         "\n\nUse the evaluate_proposal tool to assess this proposal against your "
         "preferences and decide to accept, counter, or reject.";
}

std::string incoming_text(const messages::agent_counter& x) {
  return "[COUNTER-PROPOSAL from " + x.from_agent + "]\nReason: " + x.reason + "\n" +
         proposal_text(x.proposal) +
         "\n\nUse the evaluate_proposal tool to assess this counter-proposal.";
}

std::string incoming_text(const messages::agent_accept& x) {
  return "[PROPOSAL ACCEPTED by " + x.from_agent +
         "]\nThe other party's agent has accepted your proposal. Inform your user.";
}

std::string incoming_text(const messages::agent_reject& x) {
  return "[PROPOSAL REJECTED by " + x.from_agent + "]\nReason: " + x.reason +
         "\nInform your user that the negotiation was not successful.";
}

std::string trigger_text(const trigger& t, const std::string& conversation_context) {
  char confidence[32];
  std::snprintf(confidence, sizeof confidence, "%g", t.confidence);
  return "[NEGOTIATION TRIGGERED]\nTrigger type: " + t.type +
         "\nMatched: " + t.matched_text + "\nConfidence: " + confidence +
         "\n\nAnalyze the conversation below and use the analyze_and_propose tool to "
         "extract agreement terms and build a structured proposal.\n\n=== "
         "Conversation ===\n" +
         conversation_context;
}

std::string transcript_text(const std::vector<transcript_line>& batch) {
  std::string out;
  for (const auto& e : batch) {
    if (!out.empty())
      out += "\n";
    out += "[" + e.source + "] " + e.speaker + ": " + e.text;
  }
  return out;
}

} // namespace parley::actors::llm
