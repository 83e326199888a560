#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "config/rig/loader.hpp"
#include "config/rig/rig_locator.hpp"
#include "io/bus/endpoint.hpp"
#include "io/bus/live_bus.hpp"
#include "io/bus/mirror/mirror.hpp"
#include "io/bus/mirror/mirror_health.hpp"
#include "io/bus/mirror/mirror_key.hpp"
#include "runtime/rig.hpp"
#include "tools/session/bus/bus_tools.hpp"
#include "tools/session/bus/stop_signals.hpp"
#include "tools/session/config_errors.hpp"

// `hilsim bus mirror` and `hilsim bus keygen`: a replica of a rig's bus on another host, and
// the key both ends sign with (docs/bus.md "Mirror").

namespace hil::session {

namespace bus = io::bus;
using bus_signals::StopSignals;

int bus_mirror(const BusMirrorSpec& o) {
  const std::filesystem::path rig_file = config::locate_rig(o.rig);
  const std::vector<std::filesystem::path> overlays(o.overlays.begin(), o.overlays.end());
  config::LoadResult loaded = config::load_rig_config(rig_file, overlays);
  if (!loaded.ok()) {
    print_config_errors(loaded.errors, rig_file.string());
    return 2;
  }
  config::RigSpec& settings = *loaded.settings;
  if (!settings.bus) {
    fmt::print(stderr, "{} has no bus block: nothing to mirror\n", rig_file.string());
    return 2;
  }
  if (!settings.bus->mirror) settings.bus->mirror = bus::MirrorSpec{};
  if (o.key_file) settings.bus->mirror->key_file = *o.key_file;
  if (settings.bus->mirror->key_file.empty()) {
    fmt::print(stderr, "no key: give --key FILE or bus.mirror.key_file in the rig\n");
    return 2;
  }
  // The same schema as the rig's: the same files give the same channels and units
  runtime::Rig rig(settings, {.bus_name = config::rig_name(o.rig), .live_bus = false});
  const bus::BusSchema& schema = rig.bus()->schema();
  bus::LiveBus live(schema,
                    {.endpoint = bus::endpoint_for(schema.name),
                     .mirror = settings.bus->mirror,
                     .replica = true,
                     .replica_bind = o.bind,
                     .replica_peer = o.peer,
                     .tick_period_ns = static_cast<std::uint64_t>(settings.executive.period)});
  fmt::print(stderr, "{}\n", live.describe());
  const StopSignals signals;
  while (!StopSignals::requested()) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    if (!o.quiet && live.mirror() != nullptr) {
      const std::string text =
          bus::mirror::mirror_health_text(bus::mirror::mirror_health_json(*live.mirror(), schema));
      fmt::print(stderr, "{}", text.substr(0, text.find('\n') + 1));  // the totals
    }
  }
  live.close();
  return 0;
}

int bus_keygen(const std::string& file) {
  bus::mirror::write_new_key(file);
  fmt::print("{}: a new 32-byte mirror key (mode 0600); copy it to every host of the bus\n", file);
  return 0;
}

}  // namespace hil::session
