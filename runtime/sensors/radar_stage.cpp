#include "runtime/sensors/radar_stage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "models/sensors/sensor_noise.hpp"

namespace hil::runtime {
namespace {

std::size_t object_count(const WorldObjectsStage* objects) noexcept {
  return objects != nullptr ? objects->objects().size() : 0;
}

}  // namespace

RadarStage::RadarStage(const config::RadarSpec& spec, io::can::CanBus& bus,
                       const io::can::dbc::Database& database, const models::Vehicle* vehicle,
                       const WorldObjectsStage* objects, rt::ChannelTable& table, double period_s,
                       std::uint64_t master_seed)
    : name_(spec.name),
      bus_(bus),
      vehicle_(vehicle),
      objects_(objects),
      table_(table),
      model_(spec.params, object_count(objects),
             models::derive_seed(master_seed, "radar." + spec.name)),
      frames_(database),
      every_ticks_(static_cast<std::uint32_t>(
          std::max<long long>(1, std::llround(spec.cycle_s / period_s)))) {
  const auto output = [&](const char* leaf, const char* unit, std::string description) {
    return table.add({.name = fmt::format("sensor.radar.{}.{}", spec.name, leaf),
                      .unit = unit,
                      .direction = rt::Direction::output,
                      .description = std::move(description)});
  };
  count_ =
      output("objects", "-",
             fmt::format("objects in radar {}'s last list (on CAN bus {})", spec.name, bus.name()));
  id_ = output("nearest.id", "-", "the nearest listed object's Obj_ID (0: none listed)");
  dist_long_ = output("nearest.dist_long", "m",
                      "the nearest object's distance along the "
                      "boresight, as sent (noise included)");
  dist_lat_ = output("nearest.dist_lat", "m", "the nearest object's distance across, + left");
  vrel_long_ = output("nearest.vrel_long", "m/s",
                      "the nearest object's relative velocity along the boresight (< 0 closing)");
  vrel_lat_ = output("nearest.vrel_lat", "m/s", "the nearest object's relative velocity across");
  rcs_ = output("nearest.rcs", "dBsm", "the nearest object's radar cross-section");
}

void RadarStage::run(const rt::TickContext& c) noexcept {
  models::radar::CarrierState carrier;
  if (vehicle_ != nullptr) {
    const models::VehicleOutputs& o = vehicle_->outputs();
    carrier = {.position = o.position,
               .roll = o.roll,
               .pitch = o.pitch,
               .yaw = o.yaw,
               .velocity = o.velocity_world,
               .angular_velocity = o.angular_velocity};
  }
  std::span<const models::WorldObject> objects;
  std::span<const models::ObjectState> states;
  if (objects_ != nullptr) {
    objects = objects_->objects();
    states = objects_->states();
  }
  last_ = model_.measure(carrier, objects, states);

  io::can::CanFrame frame;
  frames_.encode_status(static_cast<std::uint32_t>(last_.size()), cycles_++, frame);
  (void)bus_.send_unmapped(frame, c.tick);  // a refused frame is counted by the bus
  for (const models::radar::RadarObject& o : last_) {
    frames_.encode_object(o, frame);
    (void)bus_.send_unmapped(frame, c.tick);
  }

  table_.set(count_, static_cast<double>(last_.size()));
  const models::radar::RadarObject none{};
  const models::radar::RadarObject& n = last_.empty() ? none : last_.front();
  table_.set(id_, n.id);
  table_.set(dist_long_, n.dist_long);
  table_.set(dist_lat_, n.dist_lat);
  table_.set(vrel_long_, n.vrel_long);
  table_.set(vrel_lat_, n.vrel_lat);
  table_.set(rcs_, last_.empty() ? 0.0 : n.rcs_dbsm);
}

}  // namespace hil::runtime
