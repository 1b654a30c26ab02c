#include "actors/coordinator/prompts.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "actors/coordinator/rules.hpp"
#include "messages/json.hpp"

namespace parley::actors::coordinator {

using llm::in_language;
using llm::prompt_language;
using messages::candidate;
using messages::candidate_selection;
using messages::channel_profile;
using messages::demand_understanding;
using messages::json_error;
using messages::object_reader;
using messages::selection_source;
using nlohmann::json;

namespace {

constexpr const char* understanding_format = R"({
  "surface_demand": "...",
  "deep_understanding": {"motivation": "...", "likely_preferences": ["..."]},
  "capability_tags": ["..."],
  "context": {"location": "..."},
  "confidence": "high | medium | low"
})";

constexpr const char* selection_format = R"({
  "analysis": "...",
  "definitely_related": [{"agent_id": "...", "reason": "...", "relevance_score": 90}],
  "possibly_related": [{"agent_id": "...", "reason": "...", "relevance_score": 40}]
})";

/// What prompt 2 shows of the demand.
json demand_json(const demand_understanding& demand) {
  json j = demand;
  j.erase("fallback");
  return j;
}

/// What prompt 2 shows of the active agents.
json agents_json(const std::vector<channel_profile>& agents) {
  json list = json::array();
  for (const auto& agent : agents) {
    if (!agent.active)
      continue;
    json j = agent;
    j.erase("active");
    list.push_back(std::move(j));
  }
  return list;
}

std::string selection_user(const demand_understanding& demand,
                           const std::vector<channel_profile>& agents,
                           const messages::channel_settings& limits,
                           prompt_language language) {
  auto most = std::to_string(std::max(1, limits.max_candidates));
  return in_language(language, "The demand:\n", "需求：\n") +
         llm::prompt_json(demand_json(demand)) +
         in_language(language, "\n\nThe registered agents:\n",
                     "\n\n已注册的 Agent：\n") +
         llm::prompt_json(agents_json(agents)) +
         in_language(language, "\n\nAnswer with one JSON object:\n",
                     "\n\n请只返回一个 JSON 对象：\n") +
         selection_format +
         in_language(
             language,
             "\n\nRules: agent_id only from the list above; relevance_score an "
             "integer from 0 to 100; the two lists together name at least 1 "
             "and at most ",
             "\n\n规则：agent_id 只能取自上面的列表；relevance_score 为 0 到 100 "
             "的整数；两个列表合计至少 1 个、至多 ") +
         most +
         in_language(language, " agents, each once.", " 个 Agent，每个只出现一次。");
}

/// Reads one of the answer's candidate lists into `out`.
void read_candidates(const json& list, const std::string& path,
                     const std::map<std::string, const channel_profile*>& active,
                     std::set<std::string>& seen, std::vector<candidate>& out) {
  llm::read_each_object(list, path, [&](object_reader& r) {
    candidate x;
    llm::read_text(r, "agent_id", x.agent_id);
    auto agent = active.find(x.agent_id);
    if (agent == active.end())
      throw json_error(r.path_of("agent_id"),
                       "\"" + x.agent_id + "\" is not an active registered agent");
    if (!seen.insert(x.agent_id).second)
      throw json_error(r.path_of("agent_id"), "\"" + x.agent_id + "\" is named twice");
    r.optional("reason", x.reason);
    r.required("relevance_score", x.relevance_score);
    if (x.relevance_score < 0 || x.relevance_score > 100)
      throw json_error(r.path_of("relevance_score"),
                       "must be within 0..100, got " +
                           std::to_string(x.relevance_score));
    x.display_name = agent->second->display_name;
    out.push_back(std::move(x));
  });
}

candidate_selection fallback_selection(const std::vector<channel_profile>& agents,
                                       const messages::channel_settings& limits,
                                       std::uint64_t seed) {
  auto most = static_cast<std::size_t>(std::max(1, limits.max_candidates));
  auto count =
      std::min(most, static_cast<std::size_t>(std::max(1, limits.fallback_candidates)));
  candidate_selection x;
  x.candidates = fallback_candidates(agents, count, seed);
  x.source = selection_source::fallback;
  x.analysis = "系统繁忙，使用默认筛选"; // the original's fallback text, word for word
  return x;
}

} // namespace

llm::text_prompt understanding_prompt(const std::string& raw_input,
                                      const std::vector<std::string>& vocabulary) {
  auto language = llm::language_of(raw_input);
  llm::text_prompt prompt;
  prompt.system = in_language(
      language,
      "You understand demands for a network of cooperating agents. A user describes "
      "what they need in their own words; work out what they literally ask for, "
      "what likely lies behind it, and which capabilities it needs. Answer with one "
      "JSON object and nothing else, in the user's language.",
      "你负责为一个多方协作的 Agent 网络理解用户需求。用户会用自己的话描述需要什么；"
      "请理解其字面需求、背后的动机与偏好，以及完成它需要哪些能力。只返回一个 JSON "
      "对象，不要附加其他文字，使用用户的语言。");
  prompt.user =
      in_language(language, "The user's demand:\n", "用户的需求：\n") + raw_input +
      in_language(language,
                  "\n\nCapability tags the agents offer (prefer these for "
                  "capability_tags):\n",
                  "\n\nAgent 提供的能力标签（capability_tags 请尽量从中选择）：\n") +
      llm::prompt_json(vocabulary) +
      in_language(language, "\n\nAnswer with one JSON object:\n",
                  "\n\n请只返回一个 JSON 对象：\n") +
      understanding_format;
  return prompt;
}

llm::outcome<demand_understanding>
read_understanding(const std::string& answer, const std::string& raw_input,
                   const std::vector<std::string>& vocabulary) {
  llm::outcome<demand_understanding> result;
  result.fallback_reason = llm::read_json_answer(answer, [&](const json& j) {
    object_reader r{j, {}};
    auto& x = result.value;
    llm::read_text(r, "surface_demand", x.surface_demand);
    r.optional("deep_understanding", x.deep_understanding);
    std::vector<std::string> tags;
    r.optional("capability_tags", tags);
    for (std::size_t i = 0; i < tags.size(); ++i) {
      if (tags[i].find_first_not_of(" \t\r\n") == std::string::npos)
        throw json_error(messages::path_index("capability_tags", i),
                         "must not be empty");
      if (std::find(x.capability_tags.begin(), x.capability_tags.end(), tags[i]) ==
          x.capability_tags.end())
        x.capability_tags.push_back(tags[i]);
    }
    r.optional("context", x.context);
    messages::read_enum(r.raw("confidence"), r.path_of("confidence"), x.confidence,
                        "high | medium | low");
    return std::string{};
  });
  if (result.fallback())
    result.value = fallback_understanding(raw_input, vocabulary);
  else
    result.value.fallback = false;
  return result;
}

llm::text_prompt selection_prompt(const demand_understanding& demand,
                                  const std::vector<channel_profile>& agents,
                                  const messages::channel_settings& limits) {
  auto language = llm::language_of(demand.surface_demand);
  llm::text_prompt prompt;
  prompt.system = in_language(
      language,
      "You pick the agents of a cooperation network who can best help with a demand. "
      "Name at least 1 candidate: a demand without candidates is not allowed. Answer "
      "with one JSON object and nothing else, in the language of the demand.",
      "你负责从多方协作网络的 Agent 中挑选最能帮助完成需求的候选人。必须返回至少 1 "
      "个候选人，不允许没有候选人。只返回一个 JSON 对象，不要附加其他文字，使用需求的"
      "语言。");
  prompt.user = selection_user(demand, agents, limits, language);
  return prompt;
}

llm::text_prompt selection_retry_prompt(const demand_understanding& demand,
                                        const std::vector<channel_profile>& agents,
                                        const messages::channel_settings& limits,
                                        const std::string& why) {
  auto language = llm::language_of(demand.surface_demand);
  auto prompt = selection_prompt(demand, agents, limits);
  prompt.system +=
      in_language(language, "\n\nYour previous answer could not be used: ",
                  "\n\n你上一次的回答无法使用：") +
      why +
      in_language(language,
                  "\nThis time relax the match: any agent whose capabilities or "
                  "description touch the demand will do, with a lower "
                  "relevance_score. You must name at least 1 candidate from the list.",
                  "\n这一次请放宽标准：能力或描述与需求有任何关联的 Agent 都可以入选，"
                  "relevance_score 相应降低。必须从列表中返回至少 1 个候选人。");
  return prompt;
}

llm::outcome<candidate_selection>
read_selection(const std::string& answer, const std::vector<channel_profile>& agents,
               const messages::channel_settings& limits, selection_source pass,
               std::uint64_t seed) {
  std::map<std::string, const channel_profile*> active;
  for (const auto& agent : agents)
    if (agent.active)
      active.emplace(agent.agent_id, &agent);
  llm::outcome<candidate_selection> result;
  result.fallback_reason = llm::read_json_answer(answer, [&](const json& j) {
    object_reader r{j, {}};
    auto& x = result.value;
    r.optional("analysis", x.analysis);
    std::set<std::string> seen;
    for (auto key : {"definitely_related", "possibly_related"})
      if (r.has(key))
        read_candidates(r.raw(key), r.path_of(key), active, seen, x.candidates);
    auto most = static_cast<std::size_t>(std::max(1, limits.max_candidates));
    if (x.candidates.empty())
      return std::string{"the answer names no candidate; at least 1 is required"};
    if (x.candidates.size() > most)
      return "the answer names " + std::to_string(x.candidates.size()) +
             " candidates; at most " + std::to_string(most) + " are allowed";
    std::stable_sort(x.candidates.begin(), x.candidates.end(),
                     [](const candidate& a, const candidate& b) {
                       return a.relevance_score != b.relevance_score
                                  ? a.relevance_score > b.relevance_score
                                  : a.agent_id < b.agent_id;
                     });
    x.source = pass;
    return std::string{};
  });
  if (result.fallback())
    result.value = fallback_selection(agents, limits, seed);
  return result;
}

} // namespace parley::actors::coordinator
