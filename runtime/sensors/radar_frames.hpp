#pragma once
// A radar's object list as CAN frames (docs/sensors.md "Radar"): the status message
// (Radar_ObjectListStatus: the number of objects, the measurement counter) and one
// Radar_ObjectGeneral per object, encoded with the DBC codec from the messages of the bus's
// DBC (hil_rigs/common/radar_objects.dbc or any DBC with that layout; config/radar_spec.hpp
// checked it). Values outside a signal's range saturate (io/can/dbc/dbc_codec.hpp) and are
// counted.
// Thread-safety: build in the setup phase; encode_*() on one thread, no allocation.

#include <cstdint>
#include <vector>

#include "io/can/can_frame.hpp"
#include "io/can/dbc/dbc_codec.hpp"
#include "io/can/dbc/dbc_model.hpp"
#include "models/sensors/radar/radar_object_list.hpp"

namespace hil::runtime {

class RadarFrames {
 public:
  /// Setup: compiles the two messages of `database` (std::invalid_argument naming what is
  /// missing, for a database config/radar_spec.hpp did not check).
  explicit RadarFrames(const io::can::dbc::Database& database);

  /// The status frame of cycle `cycle` listing `objects` objects. No allocation.
  void encode_status(std::uint32_t objects, std::uint64_t cycle, io::can::CanFrame& frame) noexcept;
  /// One object's frame. No allocation.
  void encode_object(const models::radar::RadarObject& object, io::can::CanFrame& frame) noexcept;

  /// Values clamped to their signal's range so far (a target beyond Obj_DistLat's ±204 m, …).
  [[nodiscard]] std::uint64_t saturated() const noexcept { return saturated_; }

 private:
  struct Encoded {
    io::can::dbc::CompiledMessage message;
    std::vector<double> physical;  ///< one per signal, the DBC's order
  };
  Encoded status_, object_;
  // Signal indices into the messages' signals (−1: absent, optional)
  int count_ = -1, counter_ = -1, version_ = -1;
  int id_ = -1, dist_long_ = -1, dist_lat_ = -1, vrel_long_ = -1, vrel_lat_ = -1, dyn_prop_ = -1,
      rcs_ = -1;
  std::uint64_t saturated_ = 0;
};

}  // namespace hil::runtime
