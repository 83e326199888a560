#pragma once
// A stage: one unit of a tick's work (DESIGN.md §3), one method, run by the Executive in the
// order it was given, on the ticks its decimation and offset say. The executive knows nothing
// of what a stage does; which stages a product runs, in which order, is the product's
// (runtime/tick_plan.hpp for hilsim).

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "rt_core/time.hpp"

namespace hil::rt {

/// The phases of one tick (DESIGN.md §3), in order: inputs are read, the models update, the
/// outputs are written. A stage runs in one of them; the executive runs stages in their order
/// and refuses a list whose phases go back.
enum class Phase : std::uint8_t { read, update, write };

/// "read", "update", "write".
[[nodiscard]] std::string_view to_string(Phase phase) noexcept;

/// What a stage knows about the tick it runs in.
struct TickContext {
  std::int64_t tick = 0;  ///< base-rate tick counter k (executed ticks, starts at 0)
  Nanoseconds time = 0;   ///< simulation time k·dt of the base rate
  Nanoseconds dt = 0;     ///< this stage's own step: base period × its decimation
  double dt_s = 0.0;      ///< dt in seconds, for models
};

/// Runs on the RT thread: no allocation, no blocking, no exceptions, no logging.
class Stage {
 public:
  virtual ~Stage() = default;
  virtual void run(const TickContext& ctx) noexcept = 0;
};

/// A member function of an object as a stage, for a component with work in several phases
/// (`void f(const TickContext&) noexcept`, or `void f(std::int64_t tick) noexcept`):
///   rt::MethodStage<&io::can::CanBus::read_all> rx_{buses_};
template <auto Method>
class MethodStage;

template <class T, class Arg, void (T::*Method)(Arg) noexcept>
class MethodStage<Method> final : public Stage {
  static_assert(std::is_same_v<Arg, const TickContext&> || std::is_same_v<Arg, std::int64_t>,
                "a stage method takes the TickContext or the tick");

 public:
  explicit MethodStage(T& object) noexcept : object_(object) {}
  void run(const TickContext& ctx) noexcept override {
    if constexpr (std::is_same_v<Arg, std::int64_t>) {
      (object_.*Method)(ctx.tick);
    } else {
      (object_.*Method)(ctx);
    }
  }

 private:
  T& object_;
};

/// A stage in the executive's list: it runs in `phase` on ticks k with
/// k mod decimation == offset; its TickContext::dt is the base period × decimation.
struct StageEntry {
  std::string name;  ///< in timing reports ("vehicle", "can_rx", "fmu battery")
  Stage* stage = nullptr;
  Phase phase = Phase::update;
  std::uint32_t decimation = 1;
  std::uint32_t offset = 0;
};

}  // namespace hil::rt
