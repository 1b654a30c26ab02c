#pragma once

namespace parley::service {

struct exchange;

// The event streams (Server-Sent Events, sse_hub.hpp; route_table.cpp says
// which method and path each answers). A stream resumes after the
// `Last-Event-ID` header, else the `last_event_id` parameter. Both are 404
// (E032) where the routes have no hub.

/// `GET /api/v1/events/stream?topics=...&negotiation=ID&channel=ID&demand=ID`:
/// every event the filters let through, live unless resumed.
void global_stream(exchange& x);

/// `GET /api/v1/events/negotiations/{demand_id}/stream`
/// (docs/api.md, "Event streams (Server-Sent Events)"):
/// the demand's channel events, from its first unless resumed; 404 E007 for
/// a demand the coordinator does not know, as `GET /api/v1/demands/{id}`.
void demand_stream(exchange& x);

} // namespace parley::service
