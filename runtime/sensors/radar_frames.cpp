#include "runtime/sensors/radar_frames.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "config/radar_spec.hpp"

namespace hil::runtime {
namespace {

namespace dbc = io::can::dbc;

const dbc::Message& message_of(const dbc::Database& db, std::string_view name) {
  const dbc::Message* m = db.find_message(name);
  if (m == nullptr) {
    throw std::invalid_argument(fmt::format("radar: {} has no message {}", db.file_name, name));
  }
  return *m;
}

/// The index of signal `name` of `m`; −1 when absent and `optional`, else throws.
int signal_of(const dbc::Message& m, std::string_view name, bool optional = false) {
  for (std::size_t i = 0; i < m.signals.size(); ++i) {
    if (m.signals[i].name == name) return static_cast<int>(i);
  }
  if (optional) return -1;
  throw std::invalid_argument(fmt::format("radar: message {} has no signal {}", m.name, name));
}

void set(std::vector<double>& physical, int index, double value) noexcept {
  if (index >= 0) physical[static_cast<std::size_t>(index)] = value;
}

}  // namespace

RadarFrames::RadarFrames(const dbc::Database& database) {
  const dbc::Message& status = message_of(database, config::kRadarStatusMessage);
  const dbc::Message& object = message_of(database, config::kRadarObjectMessage);
  status_ = {dbc::compile(status), std::vector<double>(status.signals.size(), 0.0)};
  object_ = {dbc::compile(object), std::vector<double>(object.signals.size(), 0.0)};
  count_ = signal_of(status, config::kRadarObjectCount);
  counter_ = signal_of(status, config::kRadarMeasCounter);
  version_ = signal_of(status, config::kRadarInterfaceVersion, true);
  id_ = signal_of(object, config::kRadarId);
  dist_long_ = signal_of(object, config::kRadarDistLong);
  dist_lat_ = signal_of(object, config::kRadarDistLat);
  vrel_long_ = signal_of(object, config::kRadarVrelLong);
  vrel_lat_ = signal_of(object, config::kRadarVrelLat);
  dyn_prop_ = signal_of(object, config::kRadarDynProp);
  rcs_ = signal_of(object, config::kRadarRcs);
  set(status_.physical, version_, 1.0);  // this interface's version (the DBC's comment)
}

void RadarFrames::encode_status(std::uint32_t objects, std::uint64_t cycle,
                                io::can::CanFrame& frame) noexcept {
  set(status_.physical, count_, objects);
  set(status_.physical, counter_, static_cast<double>(cycle % 65536U));  // 16 bits, wraps
  const dbc::EncodeResult r = dbc::encode_frame(status_.message, status_.physical, frame);
  saturated_ += r.saturated + r.not_a_number;
}

void RadarFrames::encode_object(const models::radar::RadarObject& o,
                                io::can::CanFrame& frame) noexcept {
  set(object_.physical, id_, o.id);
  set(object_.physical, dist_long_, o.dist_long);
  set(object_.physical, dist_lat_, o.dist_lat);
  set(object_.physical, vrel_long_, o.vrel_long);
  set(object_.physical, vrel_lat_, o.vrel_lat);
  set(object_.physical, dyn_prop_, static_cast<double>(o.dynamic));
  set(object_.physical, rcs_, o.rcs_dbsm);
  const dbc::EncodeResult r = dbc::encode_frame(object_.message, object_.physical, frame);
  saturated_ += r.saturated + r.not_a_number;
}

}  // namespace hil::runtime
