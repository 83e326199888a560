#include "tools/session/rig_channels.hpp"

#include <fmt/format.h>

#include <string>

#include "io/can/transport/transport_factory.hpp"
#include "runtime/rig.hpp"

namespace hil::session {

std::vector<rt::ChannelSpec> rig_channels(const config::RigSpec& rig) {
  const runtime::Rig built(
      rig, {.transport_for_bus =
                [](std::size_t bus, const std::string& /*name*/) {
                  return io::can::open_transport(fmt::format("virtual:hilsim_check_{}", bus));
                },
            .live_bus = false});
  const auto specs = built.table().specs();
  return {specs.begin(), specs.end()};
}

}  // namespace hil::session
