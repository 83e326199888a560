#include "models/drive/lookup_table.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hil::models {

LookupTable::LookupTable(std::initializer_list<std::pair<double, double>> points)
    : LookupTable(std::span<const std::pair<double, double>>(points.begin(), points.size())) {}

LookupTable::LookupTable(std::span<const std::pair<double, double>> points) {
  if (points.size() == 0 || points.size() > kCapacity) {
    throw std::invalid_argument("lookup table: needs 1.." + std::to_string(kCapacity) +
                                " points, got " + std::to_string(points.size()));
  }
  for (const auto& [px, py] : points) {
    if (!std::isfinite(px) || !std::isfinite(py)) {
      throw std::invalid_argument("lookup table: point " + std::to_string(size_) + " not finite");
    }
    if (size_ > 0 && px <= x_[size_ - 1]) {
      throw std::invalid_argument("lookup table: point " + std::to_string(size_) +
                                  ": x must increase strictly");
    }
    x_[size_] = px;
    y_[size_] = py;
    ++size_;
  }
}

double LookupTable::operator()(double x) const noexcept {
  if (size_ == 0) return 0.0;
  if (!(x > x_[0])) return y_[0];  // also NaN: the first value, never NaN out
  if (x >= x_[size_ - 1]) return y_[size_ - 1];
  // First node strictly greater than x; x_[k − 1] ≤ x < x_[k].
  const double* first = x_.data();
  const auto k = static_cast<std::size_t>(std::upper_bound(first, first + size_, x) - first);
  const double s = (x - x_[k - 1]) / (x_[k] - x_[k - 1]);
  return y_[k - 1] + s * (y_[k] - y_[k - 1]);
}

double LookupTable::argmax() const noexcept {
  if (size_ == 0) return 0.0;
  const double* first = y_.data();
  return x_[static_cast<std::size_t>(std::max_element(first, first + size_) - first)];
}

}  // namespace hil::models
