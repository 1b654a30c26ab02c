#include "service/node_routes.hpp"

#include <string>

#include "messages/type_ids.hpp"
#include "service/cluster_view.hpp"
#include "service/dashboard.hpp"
#include "service/exchange.hpp"
#include "service/metrics_route.hpp"

namespace parley::service {

void healthz(exchange& x) {
  x.respond(json_response(200, {{"status", "ok"}}));
}

void readyz(exchange& x) {
  if (!x.st.ready->load())
    return x.respond(
        busy_response("parley serve is recovering its store, or stopping"));
  x.ask_actor<std::string>(
      x.st.to.store,
      [](const std::string& failure) {
        if (failure.empty())
          return json_response(200, {{"status", "ready"}});
        auto r =
            error_response(messages::error_code::store_failed, "the store " + failure);
        r.retry_after_s = retry_after_busy_s;
        return r;
      },
      messages::ping_atom::value);
}

void metrics_page(exchange& x) {
  if (!x.st.to.metrics)
    return x.no_route();
  x.respond(metrics_response(*x.st.to.metrics));
}

void cluster_members(exchange& x) {
  if (!x.st.to.cluster)
    return x.respond(error_response(messages::error_code::route_not_found,
                                    "this node joined no cluster: start `parley serve` "
                                    "with --cluster NAME"));
  x.respond(json_response(200, x.st.to.cluster->body()));
}

void dashboard_page(exchange& x) {
  x.respond(dashboard_answer("index.html"));
}

void dashboard_asset(exchange& x) {
  // The name as sent: a file's name needs no escape, and one that is not
  // UTF-8 is no file's (404, not 400).
  x.respond(dashboard_answer(x.params[0]));
}

} // namespace parley::service
