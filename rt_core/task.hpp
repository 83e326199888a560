#pragma once
// A unit of cyclic work run by the Executive. The executive owns the loop; a task fills the
// phases of one tick (DESIGN.md §3): read inputs, update the model, write outputs.

#include <cstdint>

#include "rt_core/time.hpp"

namespace hil::rt {

/// What a task knows about the tick it is running in.
struct TickContext {
  std::int64_t tick = 0;  ///< base-rate tick counter k (executed ticks, starts at 0)
  Nanoseconds time = 0;   ///< simulation time k·dt of the base rate
  Nanoseconds dt = 0;     ///< this task's own step: base period × its decimation
  double dt_s = 0.0;      ///< dt in seconds, for models
};

/// Every phase runs on the RT thread: no allocation, no blocking, no exceptions, no logging.
class Task {
 public:
  virtual ~Task() = default;
  virtual void read(const TickContext& /*ctx*/) noexcept {}
  virtual void update(const TickContext& ctx) noexcept = 0;
  virtual void write(const TickContext& /*ctx*/) noexcept {}
};

}  // namespace hil::rt
