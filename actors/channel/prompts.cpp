#include "actors/channel/prompts.hpp"

#include <map>
#include <set>

#include "messages/json.hpp"

namespace parley::actors::channel {

using llm::in_language;
using llm::prompt_language;
using messages::channel_profile;
using messages::json_error;
using messages::object_reader;
using messages::offer_decision;
using nlohmann::json;

namespace {

constexpr const char* offer_format = R"({
  "response_type": "offer | negotiate",
  "decision": "participate | decline | conditional",
  "contribution": "...",
  "conditions": ["..."],
  "reasoning": "...",
  "decline_reason": "...",
  "negotiation_points": [
    {"aspect": "...", "current_value": "...", "desired_value": "...", "reason": "..."}
  ],
  "confidence": 80
})";

constexpr const char* feedback_format = R"({
  "feedback_type": "accept | negotiate | withdraw",
  "adjustment_request": "...",
  "reasoning": "..."
})";

constexpr const char* proposal_format = R"({
  "summary": "...",
  "objective": "...",
  "assignments": [
    {"agent_id": "...", "role": "...", "responsibility": "...",
     "dependencies": ["..."], "notes": "..."}
  ],
  "timeline": {"...": "..."},
  "rationale": "...",
  "gaps": [{"description": "...", "capability_tags": ["..."]}],
  "confidence": "high | medium | low"
})";

/// What a prompt shows of the member it speaks for.
json member_json(const channel_profile& member) {
  json j = member;
  j.erase("active");
  return j;
}

/// The part of every answer that is one line: "Answer with one JSON object".
std::string answer_with(prompt_language language, const char* format) {
  return in_language(language, "\n\nAnswer with one JSON object:\n",
                     "\n\n请只返回一个 JSON 对象：\n") +
         std::string{format};
}

/// The system prompt of the two user-agent prompts.
std::string member_system(const channel_profile& member, prompt_language language) {
  return in_language(language, "You act for the agent ", "你代表 Agent ") +
         member.display_name + " (" + member.agent_id + ")" +
         in_language(language,
                     " in a network of cooperating agents. Decide as its owner would, "
                     "from its capabilities and description. Answer with one JSON "
                     "object and nothing else, in the language of the demand.",
                     " 参与一个多方协作网络。请根据它的能力与描述，像它的主人那样做出"
                     "决定。只返回一个 JSON 对象，不要附加其他文字，使用需求的语言。");
}

void require_text(const std::string& value, const std::string& path) {
  if (value.find_first_not_of(" \t\r\n") == std::string::npos)
    throw json_error(path, "must not be empty");
}

/// Reads the answer's assignments: agents whose offers take part, each once.
void read_assignments(object_reader& r, const aggregation_input& in,
                      std::vector<messages::assignment>& out) {
  std::map<std::string, const messages::offer_response*> taking_part;
  for (const auto& offer : in.offers)
    if (offer.decision != offer_decision::decline)
      taking_part.emplace(offer.agent_id, &offer);
  out.clear();
  if (!r.has("assignments")) {
    if (!taking_part.empty())
      throw json_error(r.path_of("assignments"), "is required when offers take part");
    return;
  }
  const auto& list = r.raw("assignments");
  auto path = r.path_of("assignments");
  if (list.is_array() && list.empty() && !taking_part.empty())
    throw json_error(path, "names nobody, but " + std::to_string(taking_part.size()) +
                               " offers take part");
  std::set<std::string> assigned;
  llm::read_each_object(list, path, [&](object_reader& a) {
    messages::assignment x;
    llm::read_text(a, "agent_id", x.agent_id);
    auto offer = taking_part.find(x.agent_id);
    if (offer == taking_part.end())
      throw json_error(a.path_of("agent_id"),
                       "\"" + x.agent_id + "\" has no offer that takes part");
    if (!assigned.insert(x.agent_id).second)
      throw json_error(a.path_of("agent_id"),
                       "\"" + x.agent_id + "\" is assigned twice");
    llm::read_text(a, "role", x.role);
    x.responsibility = offer->second->contribution;
    a.optional("responsibility", x.responsibility);
    a.optional("dependencies", x.dependencies);
    a.optional("notes", x.notes);
    x.display_name = offer->second->display_name;
    x.is_confirmed = offer->second->decision == offer_decision::participate;
    out.push_back(std::move(x));
  });
  for (std::size_t i = 0; i < out.size(); ++i)
    for (const auto& dependency : out[i].dependencies)
      if (assigned.count(dependency) == 0)
        throw json_error(
            messages::path_join(messages::path_index(path, i), "dependencies"),
            "\"" + dependency + "\" is not an assigned agent");
}

/// The proposal under review; an empty one if the review came without (only
/// a broken peer sends that).
const messages::channel_proposal& proposal_of(const messages::proposal_review& review) {
  static const messages::channel_proposal none;
  return review.proposal ? *review.proposal : none;
}

} // namespace

llm::text_prompt offer_prompt(const channel_profile& member,
                              const messages::demand_offer& offer) {
  auto language = llm::language_of(offer.surface_demand);
  json demand = {{"channel_id", offer.channel_id},
                 {"demand_id", offer.demand_id},
                 {"surface_demand", offer.surface_demand},
                 {"capability_tags", offer.capability_tags},
                 {"round", offer.round},
                 {"filter_reason", offer.filter_reason},
                 {"match_score", offer.match_score}};
  llm::text_prompt prompt;
  prompt.system = member_system(member, language);
  prompt.user =
      in_language(language, "Your agent:\n", "你代表的 Agent：\n") +
      llm::prompt_json(member_json(member)) +
      in_language(language,
                  "\n\nIt is invited to help with this demand (filter_reason: why it "
                  "was invited; match_score: how well it matches, 0-100):\n",
                  "\n\n它被邀请参与这个需求（filter_reason：被邀请的原因；"
                  "match_score：匹配度，0-100）：\n") +
      llm::prompt_json(demand) +
      in_language(
          language,
          "\n\nresponse_type: offer to contribute as things stand (contribution "
          "required unless you decline), negotiate to bargain first "
          "(negotiation_points required). decision: participate, decline (say why "
          "in decline_reason) or conditional (list the conditions). confidence: an "
          "integer from 0 to 100.",
          "\n\nresponse_type：offer 表示按现状提供具体贡献（除拒绝外必须填写 "
          "contribution），negotiate 表示希望先讨价还价（必须填写 "
          "negotiation_points）。decision：participate 参与、decline 拒绝（在 "
          "decline_reason 说明原因）或 conditional 有条件参与（列出 conditions）。"
          "confidence：0 到 100 的整数。") +
      answer_with(language, offer_format);
  return prompt;
}

llm::outcome<messages::offer_response>
read_offer_response(const std::string& answer, const channel_profile& member,
                    const messages::demand_offer& offer,
                    const std::string& message_id) {
  llm::outcome<messages::offer_response> result;
  auto& x = result.value;
  x.message_id = message_id;
  x.channel_id = offer.channel_id;
  x.agent_id = member.agent_id;
  x.display_name = member.display_name;
  result.fallback_reason = llm::read_json_answer(answer, [&](const json& j) {
    object_reader r{j, {}};
    messages::read_enum(r.raw("response_type"), r.path_of("response_type"),
                        x.response_type, "offer | negotiate");
    messages::read_enum(r.raw("decision"), r.path_of("decision"), x.decision,
                        "participate | decline | conditional");
    r.optional("contribution", x.contribution);
    r.optional("conditions", x.conditions);
    r.required("reasoning", x.reasoning);
    r.optional("decline_reason", x.decline_reason);
    r.optional("negotiation_points", x.negotiation_points);
    r.required("confidence", x.confidence);
    return messages::validate(x);
  });
  if (result.fallback()) {
    auto language = llm::language_of(offer.surface_demand);
    auto fallback = messages::offer_response{};
    fallback.message_id = x.message_id;
    fallback.channel_id = x.channel_id;
    fallback.agent_id = x.agent_id;
    fallback.display_name = x.display_name;
    fallback.response_type = messages::offer_response_type::offer;
    fallback.decision = offer_decision::participate;
    fallback.contribution =
        in_language(language, "Willing to take part; contribution to be confirmed",
                    "愿意参与，具体贡献待确认");
    fallback.confidence = 50;
    fallback.fallback = true;
    x = std::move(fallback);
  }
  return result;
}

llm::text_prompt feedback_prompt(const channel_profile& member,
                                 const messages::proposal_review& review) {
  const auto& proposal = proposal_of(review);
  auto language = llm::language_of(proposal.objective + proposal.summary);
  // The member's model needs not see when or how the proposal was made.
  json shown = proposal;
  shown.erase("created_at");
  shown.erase("fallback");
  llm::text_prompt prompt;
  prompt.system = member_system(member, language);
  prompt.user = in_language(language, "Your agent:\n", "你代表的 Agent：\n") +
                llm::prompt_json(member_json(member)) +
                in_language(language, "\n\nThe proposal of round ", "\n\n第 ") +
                std::to_string(review.round) + " / " +
                std::to_string(review.max_rounds) +
                in_language(language, ":\n", " 轮的方案：\n") + llm::prompt_json(shown);
  if (review.your_assignment) {
    json mine = *review.your_assignment;
    prompt.user += in_language(language, "\n\nYour assignment:\n", "\n\n你的分工：\n") +
                   llm::prompt_json(mine);
  }
  prompt.user +=
      in_language(language,
                  "\n\nfeedback_type: accept the proposal, negotiate (say in "
                  "adjustment_request what should change) or withdraw from the "
                  "cooperation.",
                  "\n\nfeedback_type：accept 接受方案、negotiate 要求调整（在 "
                  "adjustment_request 说明希望如何调整）或 withdraw 退出协作。") +
      answer_with(language, feedback_format);
  return prompt;
}

llm::outcome<messages::proposal_feedback>
read_feedback(const std::string& answer, const channel_profile& member,
              const messages::proposal_review& review, const std::string& message_id) {
  llm::outcome<messages::proposal_feedback> result;
  auto& x = result.value;
  x.message_id = message_id;
  x.channel_id = review.channel_id;
  x.agent_id = member.agent_id;
  result.fallback_reason = llm::read_json_answer(answer, [&](const json& j) {
    object_reader r{j, {}};
    messages::read_enum(r.raw("feedback_type"), r.path_of("feedback_type"),
                        x.feedback_type, "accept | negotiate | withdraw");
    r.optional("adjustment_request", x.adjustment_request);
    if (x.feedback_type == messages::feedback_type::negotiate)
      require_text(x.adjustment_request, r.path_of("adjustment_request"));
    r.required("reasoning", x.reasoning);
    return messages::validate(x);
  });
  if (result.fallback()) {
    const auto& proposal = proposal_of(review);
    auto language = llm::language_of(proposal.objective + proposal.summary);
    x.feedback_type = messages::feedback_type::accept;
    x.adjustment_request.clear();
    x.reasoning =
        in_language(language, "System busy; accepted by default", "系统繁忙，默认接受");
    x.fallback = true;
  }
  return result;
}

llm::text_prompt aggregation_prompt(const aggregation_input& in) {
  auto language = llm::language_of(in.objective);
  json offers = json::array();
  for (const auto& offer : in.offers) {
    json o = offer;
    o.erase("message_id");
    o.erase("channel_id");
    o.erase("fallback");
    offers.push_back(std::move(o));
  }
  llm::text_prompt prompt;
  prompt.system = in_language(
      language,
      "You are the admin of a channel in a network of cooperating agents. Merge the "
      "agents' answers to a demand into one proposal: who does what, in which "
      "order, and what is still missing. Answer with one JSON object and nothing "
      "else, in the language of the demand.",
      "你是多方协作网络中一个 Channel 的管理员。请把各 Agent 对需求的响应整合成一个"
      "方案：谁负责什么、先后顺序如何、还缺什么。只返回一个 JSON 对象，不要附加其他"
      "文字，使用需求的语言。");
  prompt.user =
      in_language(language, "The demand: ", "需求：") + in.objective +
      in_language(language, "\nRound ", "\n第 ") + std::to_string(in.round) +
      in_language(language, "; candidates invited: ", " 轮；受邀候选人数：") +
      std::to_string(in.invited) +
      in_language(language, "\n\nTheir answers:\n", "\n\n他们的响应：\n") +
      llm::prompt_json(offers) +
      in_language(language,
                  "\n\nAssign every agent that takes part (participate or "
                  "conditional) at most once, by its agent_id, with a role; agents "
                  "that declined get no assignment. dependencies name other assigned "
                  "agents. gaps: what the demand needs that nobody covers.",
                  "\n\n为每个参与（participate 或 conditional）的 Agent 按 agent_id "
                  "最多分配一次角色（role）；拒绝的 Agent 不分配。dependencies 只能"
                  "填写其他已分配的 Agent。gaps：需求需要但无人覆盖的部分。") +
      answer_with(language, proposal_format);
  return prompt;
}

llm::outcome<messages::channel_proposal>
read_proposal(const std::string& answer, const aggregation_input& in,
              const messages::channel_settings& settings) {
  llm::outcome<messages::channel_proposal> result;
  auto base = aggregate(in, settings);
  result.fallback_reason = llm::read_json_answer(answer, [&](const json& j) {
    object_reader r{j, {}};
    auto& x = result.value;
    x = base;
    llm::read_text(r, "summary", x.summary);
    r.optional("objective", x.objective);
    read_assignments(r, in, x.assignments);
    x.timeline = {};
    r.optional("timeline", x.timeline);
    x.rationale.clear();
    r.optional("rationale", x.rationale);
    r.optional("gaps", x.gaps);
    for (std::size_t i = 0; i < x.gaps.size(); ++i)
      require_text(x.gaps[i].description,
                   messages::path_join(messages::path_index(r.path_of("gaps"), i),
                                       "description"));
    messages::read_enum(r.raw("confidence"), r.path_of("confidence"), x.confidence,
                        "high | medium | low");
    return messages::validate(x, settings.max_rounds);
  });
  if (result.fallback()) {
    result.value = std::move(base);
    result.value.fallback = true;
  }
  return result;
}

} // namespace parley::actors::channel
