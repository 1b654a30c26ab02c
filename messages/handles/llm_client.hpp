#pragma once

#include <cstdint>

#include "caf/atom.hpp"
#include "caf/replies_to.hpp"
#include "caf/typed_actor.hpp"

#include "messages/fwd.hpp"

namespace parley::actors {

/// Whoever calls an LLM client gets its answer as an `llm_response`.
using llm_caller_actor = caf::typed_actor<caf::reacts_to<messages::llm_response>>;

/// Performs one attempt of an LLM call and answers its sender with an
/// `llm_attempt` (tests inject one instead of libcurl workers).
using llm_performer_actor = caf::typed_actor<caf::reacts_to<messages::llm_request>>;

/// A client's own timer before it retries a call.
using llm_retry_atom = caf::atom_constant<caf::atom("llm_retry")>;

/// The HTTP client of one LLM provider (see actors/llm/client.hpp):
/// calls, the outcomes of their attempts, and its retry timer.
using llm_client_actor =
    caf::typed_actor<caf::reacts_to<messages::llm_request>,
                     caf::reacts_to<messages::llm_attempt>,
                     caf::reacts_to<llm_retry_atom, std::uint64_t>>;

} // namespace parley::actors
