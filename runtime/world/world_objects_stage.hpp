#pragma once
// The scenario's objects in the tick (docs/sensors.md "Objects"): a stage of the world slot
// that moves each moving target along its path (started at its time or when its condition
// holds) and writes every object's state to its channels world.<name>.x, .y, .z, .yaw,
// .speed, .moving (but the course's cones': fixed, they are the course's, and a lane change
// has dozens). The rig's range sensors read states() in the sensors slot of the same tick.
// Thread-safety: run() and states() on the executive's thread; the rest in the setup phase.

#include <memory>
#include <span>
#include <vector>

#include "models/terrain/terrain.hpp"
#include "models/world/object_motion.hpp"
#include "models/world/world_object.hpp"
#include "rt_core/channel_table.hpp"
#include "rt_core/stage.hpp"

namespace hil::runtime {

class WorldObjectsStage final : public rt::Stage {
 public:
  /// Setup: adds the objects' channels to `table` (not yet frozen) and places each object at
  /// its start, on `terrain` (which must outlive the stage).
  WorldObjectsStage(std::vector<models::MovingObjectSpec> objects, const models::Terrain& terrain,
                    rt::ChannelTable& table, double period_s);
  ~WorldObjectsStage() override;
  /// Setup, after the table is frozen: resolves the start conditions (std::invalid_argument
  /// naming the object and the channel it does not know).
  void bind(const rt::ChannelTable& table);

  /// RT: moves the objects to tick c.tick and writes their channels.
  void run(const rt::TickContext& c) noexcept override;

  [[nodiscard]] std::span<const models::WorldObject> objects() const noexcept;
  /// RT (executive's thread): every object's state at the last tick run, objects()' order.
  [[nodiscard]] std::span<const models::ObjectState> states() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hil::runtime
