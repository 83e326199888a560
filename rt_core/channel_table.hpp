#pragma once
// The one idea (DESIGN.md §1): every value that crosses a boundary is a channel — a named,
// unit-carrying double in one table. Names are resolved to ids once, at configure time; the
// RT path only uses ids and the contiguous value array.

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rt_core/seqlock.hpp"

namespace hil::rt {

enum class Direction : std::uint8_t { input, output };

[[nodiscard]] std::string_view to_string(Direction d) noexcept;

struct ChannelSpec {
  std::string name;  ///< dotted lower snake case: "vehicle.wheel.fl.speed"
  std::string unit;  ///< SI, "-" if dimensionless: "rad/s"
  Direction direction = Direction::output;
  double initial = 0.0;
  std::string description;
  /// An input's range: what an operator or a script may write (docs/api.md "write").
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
};

struct ChannelId {
  std::uint32_t index = 0;
  friend bool operator==(ChannelId, ChannelId) = default;
};

/// A consistent copy of all values as published at the end of one tick's write phase.
class ChannelSnapshot {
 public:
  /// The tick that published it; -1 when nothing was published yet.
  [[nodiscard]] std::int64_t tick() const noexcept;
  [[nodiscard]] std::span<const double> values() const noexcept;
  [[nodiscard]] double operator[](ChannelId id) const noexcept { return values()[id.index]; }

 private:
  friend class ChannelTable;
  std::vector<double> words_;  // [tick bits, value 0, value 1, ...]: the published layout
};

class ChannelTable {
 public:
  // ---- setup phase (one thread; may allocate and throw) ----

  /// Adds a channel; throws std::invalid_argument on a bad or duplicate name, or after
  /// freeze().
  ChannelId add(ChannelSpec spec);
  /// Id of `name`; throws std::out_of_range naming the channel and the closest known names.
  [[nodiscard]] ChannelId resolve(std::string_view name) const;
  [[nodiscard]] std::optional<ChannelId> find(std::string_view name) const;
  /// Ends the setup phase: sizes the snapshot buffer. add() throws afterwards.
  void freeze();

  [[nodiscard]] bool frozen() const noexcept { return snapshot_.has_value(); }
  [[nodiscard]] std::size_t size() const noexcept { return specs_.size(); }
  [[nodiscard]] const ChannelSpec& spec(ChannelId id) const { return specs_.at(id.index); }
  [[nodiscard]] std::span<const ChannelSpec> specs() const noexcept { return specs_; }

  // ---- cyclic phase (the RT thread only; no allocation) ----

  [[nodiscard]] double get(ChannelId id) const noexcept { return values_[id.index]; }
  void set(ChannelId id, double value) noexcept { values_[id.index] = value; }
  [[nodiscard]] std::span<double> values() noexcept { return values_; }
  [[nodiscard]] std::span<const double> values() const noexcept { return values_; }
  /// Publishes the current values as the snapshot of `tick`. Requires freeze(). Const: the
  /// snapshot is the readers' copy of the values, not part of them (it changes no value).
  void publish(std::int64_t tick) const noexcept;

  // ---- any thread, while the RT thread runs ----

  /// Copies the latest published snapshot into `out` (reuses its storage). Requires freeze().
  void read_snapshot(ChannelSnapshot& out) const;

 private:
  std::vector<ChannelSpec> specs_;
  std::unordered_map<std::string, ChannelId> ids_;
  std::vector<double> values_;
  mutable std::optional<SeqlockBuffer> snapshot_;  // publish(): the readers' copy
};

/// True for dotted lower snake case names: segments [a-z][a-z0-9_]* joined by '.'.
[[nodiscard]] bool is_valid_channel_name(std::string_view name) noexcept;

}  // namespace hil::rt
