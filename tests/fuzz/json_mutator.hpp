#pragma once

// A structure-aware mutator for the targets whose input is JSON. Byte
// mutations rarely turn `"type": "text"` into `"type": 1` while keeping the
// document valid, yet a value of an unexpected type is what parsers of JSON
// trip over; so half of the mutations parse the input and change one node of
// the tree, the other half are libFuzzer's own. Include this header in the one
// source file of a target: it defines LLVMFuzzerCustomMutator.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size,
                                        std::size_t max_size);

namespace parley::fuzz {

using nlohmann::json;

/// Values that send a reader down another path: other types, empty
/// containers, boundary numbers.
inline const std::vector<json>& replacements() {
  static const std::vector<json> values = {nullptr,
                                           true,
                                           false,
                                           0,
                                           -1,
                                           1,
                                           1.5,
                                           std::numeric_limits<std::int64_t>::max(),
                                           std::numeric_limits<std::int64_t>::min(),
                                           std::numeric_limits<std::uint64_t>::max(),
                                           31536000000,
                                           31536000001,
                                           "",
                                           "x",
                                           json::array(),
                                           json::object(),
                                           json::array({1}),
                                           json::object({{"type", "text"}})};
  return values;
}

/// Every node of `root` in pre-order, and every object key seen.
struct tree_index {
  std::vector<json*> nodes;
  std::vector<std::string> keys;
};

inline tree_index index_tree(json& root) {
  tree_index index;
  std::vector<json*> pending{&root};
  while (!pending.empty()) {
    auto* node = pending.back();
    pending.pop_back();
    index.nodes.push_back(node);
    if (node->is_object())
      for (auto i = node->begin(); i != node->end(); ++i) {
        index.keys.push_back(i.key());
        pending.push_back(&i.value());
      }
    else if (node->is_array())
      for (auto& item : *node)
        pending.push_back(&item);
  }
  return index;
}

/// Changes one node of `root`: replaces it by another value or by a copy of
/// another node, drops one of its members, or adds one.
inline void mutate_tree(json& root, std::minstd_rand& rng) {
  auto index = index_tree(root);
  auto& node = *index.nodes[rng() % index.nodes.size()];
  const auto& values = replacements();
  switch (rng() % 4) {
  case 0:
    node = values[rng() % values.size()];
    break;
  case 1: {
    json copy = *index.nodes[rng() % index.nodes.size()];
    node = std::move(copy);
    break;
  }
  case 2:
    if (node.is_object() && !node.empty()) {
      auto i = node.begin();
      std::advance(i, static_cast<std::ptrdiff_t>(rng() % node.size()));
      node.erase(i);
    } else if (node.is_array() && !node.empty()) {
      node.erase(rng() % node.size());
    }
    break;
  default:
    if (node.is_object() && !index.keys.empty())
      node[index.keys[rng() % index.keys.size()]] = values[rng() % values.size()];
    else if (node.is_array())
      node.push_back(values[rng() % values.size()]);
    break;
  }
}

} // namespace parley::fuzz

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size,
                                               unsigned int seed) {
  std::minstd_rand rng{seed};
  if (rng() % 2 == 0) {
    auto doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (!doc.is_discarded()) {
      parley::fuzz::mutate_tree(doc, rng);
      auto text = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (text.size() <= max_size) {
        std::memcpy(data, text.data(), text.size());
        return text.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
