#include "service/cluster_view.hpp"

#include "actors/store/iso_time.hpp"

namespace parley::service {

namespace store = actors::store;

nlohmann::json member_json(const store::member_row& m) {
  return {{"cluster", m.key.cluster},
          {"node_id", m.key.node_id},
          {"incarnation", m.key.incarnation},
          {"status", store::to_string(m.status)},
          {"lease_age_ms", m.lease_age_ms},
          {"api_address", m.api_address},
          {"node_address", m.node_address},
          {"joined_at", store::to_iso(m.joined_at)},
          {"heartbeat_at", store::to_iso(m.heartbeat_at)},
          {"lease_until", store::to_iso(m.lease_until)},
          {"taken_over_by", m.taken_over_by},
          {"negotiations", m.negotiations},
          {"rooms", m.rooms},
          {"channels", m.channels}};
}

void cluster_view::set(const std::vector<store::member_row>& rows) {
  auto members = nlohmann::json::array();
  for (const auto& m : rows)
    members.push_back(member_json(m));
  listener tell;
  {
    std::lock_guard<std::mutex> guard{mtx_};
    members_ = std::move(members);
    tell = listener_;
  }
  if (tell)
    tell(rows);
}

void cluster_view::on_set(listener f) {
  std::lock_guard<std::mutex> guard{mtx_};
  listener_ = std::move(f);
}

nlohmann::json cluster_view::body() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return {{"cluster", cluster_}, {"members", members_}};
}

} // namespace parley::service
