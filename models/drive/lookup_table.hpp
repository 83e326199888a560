#pragma once
// A piecewise-linear table y(x) of fixed capacity: engine torque curves (AutoSim §4.4.4,
// Figure 21 "a typical torque RPM curve"), torque-converter maps. Built in the setup phase
// (may throw), evaluated on the real-time path (noexcept, no allocation).

#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <utility>

namespace hil::models {

class LookupTable {
 public:
  static constexpr std::size_t kCapacity = 32;

  LookupTable() = default;

  /// Points (x, y) with strictly increasing, finite x and finite y; 1 ≤ count ≤ kCapacity.
  /// Throws std::invalid_argument otherwise, naming the offending point index.
  LookupTable(std::initializer_list<std::pair<double, double>> points);
  explicit LookupTable(std::span<const std::pair<double, double>> points);

  /// Linear interpolation; beyond the ends the end value holds. 0 for an empty table.
  [[nodiscard]] double operator()(double x) const noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] double x(std::size_t k) const noexcept { return x_[k]; }
  [[nodiscard]] double y(std::size_t k) const noexcept { return y_[k]; }

  /// The x of the largest y (the first, if several). 0 for an empty table.
  [[nodiscard]] double argmax() const noexcept;

 private:
  std::array<double, kCapacity> x_{};
  std::array<double, kCapacity> y_{};
  std::size_t size_ = 0;
};

}  // namespace hil::models
