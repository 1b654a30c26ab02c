#include "cluster/bridge/codec.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "caf/make_message.hpp"

#include "messages/agent_messages.hpp"
#include "messages/commands.hpp"
#include "messages/compact_codec.hpp"
#include "messages/events.hpp"
#include "messages/llm.hpp"
#include "messages/type_ids.hpp"

namespace parley::cluster::bridge {

namespace {

// The compact codec copies 8-byte integers and doubles as they are in memory.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the bridge's frames are little-endian");

template <class... Ts> struct type_list {};

/// A message of several elements, tagged as one.
template <class... Ts> struct elements {};

/// The types with a tag (their position here, from 1), most frequent first:
/// what W1 and the example scenarios send across a bridge. Appending a type
/// changes no other tag; none of them holds an actor handle.
using tagged = type_list<
    messages::agent_counter, messages::agent_accept, messages::negotiation_opened,
    messages::start_negotiation, messages::negotiation_event, messages::agent_proposal,
    messages::agent_reject, messages::problem_event, messages::transcript_entry,
    elements<messages::agent_counter, messages::answer_terms>,
    elements<messages::agent_proposal, messages::answer_terms>>;

/// Tag 0: the message is the next one of `others`.
constexpr std::uint8_t untagged = 0;

/// Writes, reads and recognises the messages of one tag.
template <class T> struct content {
  static bool matches(const caf::message& x) { return x.match_elements<T>(); }
  static void write(messages::compact_writer& f, std::uint8_t tag,
                    const caf::message& x) {
    f(tag, x.get_as<T>(0));
  }
  static caf::message read(messages::compact_reader& f) {
    T x;
    f(x);
    return caf::make_message(std::move(x));
  }
};

template <class... Ts> struct content<elements<Ts...>> {
  static bool matches(const caf::message& x) { return x.match_elements<Ts...>(); }
  static void write(messages::compact_writer& f, std::uint8_t tag,
                    const caf::message& x) {
    write(f, tag, x, std::index_sequence_for<Ts...>{});
  }
  template <std::size_t... Is>
  static void write(messages::compact_writer& f, std::uint8_t tag,
                    const caf::message& x, std::index_sequence<Is...>) {
    f(tag, x.get_as<Ts>(Is)...);
  }
  static caf::message read(messages::compact_reader& f) {
    std::tuple<Ts...> xs;
    std::apply([&](auto&... x) { f(x...); }, xs);
    return std::apply([](auto&... x) { return caf::make_message(std::move(x)...); },
                      xs);
  }
};

template <std::uint8_t Tag, class T, class... Ts>
void write_content(messages::compact_writer& f, const caf::message& x,
                   std::vector<caf::message>& others) {
  if (content<T>::matches(x)) {
    content<T>::write(f, Tag, x);
  } else if constexpr (sizeof...(Ts) > 0) {
    write_content<Tag + 1, Ts...>(f, x, others);
  } else {
    f(untagged);
    others.push_back(x);
  }
}

template <class... Ts>
void write_content(messages::compact_writer& f, const caf::message& x,
                   std::vector<caf::message>& others, type_list<Ts...>) {
  write_content<1, Ts...>(f, x, others);
}

template <std::uint8_t Tag, class T, class... Ts>
caf::message read_content(std::uint8_t tag, messages::compact_reader& f) {
  if (tag == Tag)
    return content<T>::read(f);
  if constexpr (sizeof...(Ts) > 0)
    return read_content<Tag + 1, Ts...>(tag, f);
  else
    throw std::runtime_error("bridge frame with an unknown tag");
}

template <class... Ts>
caf::message read_content(std::uint8_t tag, messages::compact_reader& f,
                          type_list<Ts...>) {
  return read_content<1, Ts...>(tag, f);
}

} // namespace

void pack(messages::routed_batch& batch, messages::routed x) {
  // A writer per message: its strings refer to earlier ones of that message.
  messages::compact_writer f{batch.packed};
  f(x.kind, x.slot);
  write_content(f, x.content, batch.others, tagged{});
}

bool batch_reader::next(messages::routed& x) {
  auto& packed = batch_->packed;
  if (pos_ >= packed.size())
    return false;
  try {
    messages::compact_reader f{packed.data() + pos_, packed.size() - pos_};
    std::uint8_t tag = untagged;
    f(x.kind, x.slot, tag);
    if (tag != untagged) {
      x.content = read_content(tag, f, tagged{});
    } else if (other_ < batch_->others.size()) {
      x.content = std::move(batch_->others[other_++]);
    } else {
      throw std::runtime_error("bridge frame with too few untagged messages");
    }
    pos_ = static_cast<std::size_t>(f.position() - packed.data());
    return true;
  } catch (const std::runtime_error&) {
    pos_ = packed.size();
    return false;
  }
}

} // namespace parley::cluster::bridge
