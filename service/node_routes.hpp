#pragma once

namespace parley::service {

struct exchange;

// What a node answers of itself: its health and readiness, its metrics and
// the dashboard's files (route_table.cpp says which method and path each
// answers).

/// `GET /healthz`: the process is up.
void healthz(exchange& x);

/// `GET /readyz`: recovery ended and the store can write (asked of the
/// store actor); else 503 with Retry-After (E030 while recovering or
/// stopping, E028 when the store cannot write).
void readyz(exchange& x);

/// `GET /metrics`: the node's metrics in Prometheus text format
/// (metrics_route.hpp); 404 (E032) in a process that keeps none.
void metrics_page(exchange& x);

/// `GET /api/v1/cluster`: the members of the cluster this node joined
/// (cluster_view.hpp; docs/cluster.md, "Membership"); 404 (E032) when
/// serve runs without --cluster.
void cluster_members(exchange& x);

/// `GET /`: the dashboard's index.html (dashboard.hpp).
void dashboard_page(exchange& x);

/// `GET /assets/{file}`: another file of the dashboard's (dashboard.hpp).
void dashboard_asset(exchange& x);

} // namespace parley::service
