#pragma once

#include "service/exchange.hpp"

namespace parley::service {

/// The event streams (Server-Sent Events, sse_hub.hpp):
/// `GET /api/v1/events/negotiations/{demand_id}/stream` (docs/api.md:
/// the demand's channel events, from its first unless resumed; 404 E007 for
/// a demand the coordinator does not know, as `GET /api/v1/demands/{id}`)
/// and `GET /api/v1/events/stream?topics=...&negotiation=ID&channel=ID&demand=ID`
/// (every event the filters let through, live unless resumed). A stream
/// resumes after the `Last-Event-ID` header, else the `last_event_id`
/// parameter.
void event_streams(exchange& x);

} // namespace parley::service
