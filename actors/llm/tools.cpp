#include "actors/llm/tools.hpp"

#include <nlohmann/json.hpp>

namespace parley::actors::llm {

using nlohmann::json;

namespace {

messages::tool_definition tool(std::string name, std::string description,
                               const json& parameters) {
  return {std::move(name), std::move(description),
          messages::json_object{parameters.dump()}};
}

std::vector<messages::tool_definition> build_agent_tools() {
  json proposal_schema = {
      {"type", "object"},
      {"properties",
       {{"amount",
         {{"type", "integer"},
          {"minimum", 1},
          {"description", "Amount in minor units (pence, cents)"}}},
        {"currency", {{"type", "string"}, {"description", "ISO 4217 code, e.g. GBP"}}},
        {"escrow", {{"type", "boolean"}}},
        {"description", {{"type", "string"}}}}},
      {"required", {"amount"}}};
  auto analyze_parameters = proposal_schema;
  analyze_parameters["required"] = {"amount", "description"};
  return {
      tool("analyze_and_propose",
           "Extract agreement terms from the conversation and send a structured "
           "proposal to the other party's agent.",
           analyze_parameters),
      tool("evaluate_proposal",
           "Decide how to answer the proposal under evaluation: accept it, counter it "
           "with a new proposal, or reject it.",
           {{"type", "object"},
            {"properties",
             {{"decision",
               {{"type", "string"}, {"enum", {"accept", "counter", "reject"}}}},
              {"reason", {{"type", "string"}}},
              {"counter_proposal", proposal_schema}}},
            {"required", {"decision", "reason"}}}),
      tool("send_message_to_user", "Tell your user what you are doing.",
           {{"type", "object"},
            {"properties", {{"message", {{"type", "string"}}}}},
            {"required", {"message"}}}),
  };
}

} // namespace

const std::vector<messages::tool_definition>& agent_tools() {
  // Built once: every room hands the same definitions to its LLM agents.
  static const auto tools = build_agent_tools();
  return tools;
}

} // namespace parley::actors::llm
