#include "io/can/mapping/can_bus_mirror.hpp"

namespace hil::io::can {

CanBusSpec mirror(const CanBusSpec& rig, double ecu_cycle_s) {
  CanBusSpec ecu;
  ecu.name = rig.name;
  ecu.uri = rig.uri;
  ecu.database = rig.database;
  ecu.e2e = rig.e2e;  // the E2E the rig checks, the ECU protects (and the other way round)
  for (const RxMessageSpec& r : rig.rx) {
    TxMessageSpec t{.message = r.message,
                    .signals = r.signals,
                    .alive_counter = r.alive_counter,
                    .crc = r.crc,
                    .crc_data_id = r.crc_data_id,
                    .e2e = r.e2e};
    const dbc::Message* m = rig.database.find_message(r.message);
    if (m == nullptr || !m->cycle_time_ms) t.cycle_s = ecu_cycle_s;
    ecu.tx.push_back(std::move(t));
  }
  for (const TxMessageSpec& t : rig.tx) {
    RxMessageSpec r{.message = t.message,
                    .signals = t.signals,
                    .alive_counter = t.alive_counter,
                    .crc = t.crc,
                    .crc_data_id = t.crc_data_id,
                    .e2e = t.e2e};
    const dbc::Message* m = rig.database.find_message(t.message);
    if (t.cycle_s) {
      r.timeout_s = 3.0 * *t.cycle_s;
    } else if (m == nullptr || !m->cycle_time_ms) {
      r.timeout_s = 1e9;  // sent on change (a simulated node's): never missing
    }
    ecu.rx.push_back(std::move(r));
  }
  return ecu;
}

void add_mirror_channels(const CanBusSpec& ecu, rt::ChannelTable& table) {
  const auto add = [&](const std::string& name, rt::Direction direction) {
    if (!table.find(name)) (void)table.add({.name = name, .unit = "-", .direction = direction});
  };
  for (const RxMessageSpec& r : ecu.rx) {
    for (const SignalBinding& b : r.signals) add(b.channel, rt::Direction::input);
  }
  for (const TxMessageSpec& t : ecu.tx) {
    for (const SignalBinding& b : t.signals) add(b.channel, rt::Direction::output);
  }
}

}  // namespace hil::io::can
