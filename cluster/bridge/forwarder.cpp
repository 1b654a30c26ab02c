#include "cluster/bridge/forwarder.hpp"

#include <utility>

#include "caf/actor_config.hpp"
#include "caf/actor_system.hpp"
#include "caf/mailbox_element.hpp"
#include "caf/make_actor.hpp"
#include "caf/monitorable_actor.hpp"
#include "caf/sec.hpp"

#include "messages/type_ids.hpp"

namespace parley::cluster::bridge {

namespace {

class forwarder_impl : public caf::monitorable_actor {
public:
  forwarder_impl(caf::actor_config& cfg, caf::actor side, messages::route_kind kind,
                 std::uint64_t slot)
      : caf::monitorable_actor(cfg), side_(std::move(side)), kind_(kind),
        slot_(slot) {}

  const char* name() const override { return "parley.forwarder"; }

  void enqueue(caf::mailbox_element_ptr what, caf::execution_unit* host) override {
    if (what->mid.is_request()) {
      if (what->sender)
        what->sender->enqueue(caf::make_mailbox_element(
                                  ctrl(), what->mid.response_id(), {},
                                  caf::make_error(caf::sec::unexpected_message)),
                              host);
      return;
    }
    auto* dest = caf::actor_cast<caf::abstract_actor*>(side_);
    dest->eq_impl(caf::make_message_id(), std::move(what->sender), host,
                  messages::routed{kind_, slot_, what->move_content_to_message()});
  }

private:
  caf::actor side_;
  messages::route_kind kind_;
  std::uint64_t slot_;
};

} // namespace

caf::strong_actor_ptr make_forwarder(caf::actor_system& sys, caf::actor side,
                                     messages::route_kind kind, std::uint64_t slot) {
  caf::actor_config cfg;
  return caf::make_actor<forwarder_impl, caf::strong_actor_ptr>(
      sys.next_actor_id(), sys.node(), &sys, cfg, std::move(side), kind, slot);
}

} // namespace parley::cluster::bridge
