#pragma once

#include <memory>
#include <type_traits>
#include <utility>

#include "caf/detail/scope_guard.hpp"
#include "caf/meta/type_name.hpp"
#include "caf/optional.hpp"

namespace parley::messages {

/// A large value shared by every receiver of a message: built once, never
/// changed after, freed with its last reader, so that sending it to many
/// actors (an event to its subscribers, a proposal to each participant)
/// copies a pointer, not the value. Crossing the network it is written out
/// whole and rebuilt on the other side, with the layout of a
/// `caf::optional<T>`: a flag, then the value.
template <class T> class shared {
public:
  shared() = default;

  explicit shared(T x) : ptr_(std::make_shared<const T>(std::move(x))) {}

  explicit operator bool() const noexcept { return static_cast<bool>(ptr_); }

  const T& operator*() const noexcept { return *ptr_; }

  const T* operator->() const noexcept { return ptr_.get(); }

  friend bool operator==(const shared& x, const shared& y) {
    return x.ptr_ == y.ptr_ || (x.ptr_ && y.ptr_ && *x.ptr_ == *y.ptr_);
  }

  template <class Inspector>
  friend typename std::enable_if<Inspector::reads_state,
                                 typename Inspector::result_type>::type
  inspect(Inspector& f, const shared& x) {
    // Read in place: the inspector only reads, the const_cast writes nothing.
    if (!x.ptr_)
      return f(caf::meta::type_name("shared"), false);
    return f(caf::meta::type_name("shared"), true, const_cast<T&>(*x.ptr_));
  }

  template <class Inspector>
  friend typename std::enable_if<Inspector::writes_state,
                                 typename Inspector::result_type>::type
  inspect(Inspector& f, shared& x) {
    caf::optional<T> loaded;
    auto guard = caf::detail::make_scope_guard([&] {
      x.ptr_ = loaded ? std::make_shared<const T>(std::move(*loaded)) : nullptr;
    });
    return f(caf::meta::type_name("shared"), loaded);
  }

private:
  std::shared_ptr<const T> ptr_;
};

} // namespace parley::messages
