#pragma once
// `hilsim fmu simulate --input CSV`: an FMU's inputs by time, with the reference FMU
// simulator's semantics (fmusim, modelica/Reference-FMUs FMIStaticInput.c): the header is
// `time,<input>,…` (names of inputs, any type; an FMI 3 array's values in one cell, space
// separated); a continuous input (a real of variability continuous) is interpolated linearly
// between rows and held after the last; a discrete one (integer, boolean, string, enumeration,
// a discrete real) holds a row's value until the next row (a step); two rows at the same time
// make an event there — the values before it come from the first, after it from the second.
// A communication point is put at every input event (next_event) so the outputs line up with
// the reference results. Times are "the same" within fmusim's FMIIsClose (1e-5 absolute or
// relative). Setup (reading) throws FmuError naming file:line; apply() allocates only for
// strings. Thread-safety: one thread at a time.

#include <filesystem>
#include <string>
#include <vector>

#include "io/fmu/fmu_values.hpp"

namespace hil::session {

/// fmusim's FMIIsClose: |a − b| ≤ 1e-5, or ≤ 1e-5·max(|a|, |b|).
[[nodiscard]] bool fmi_close(double a, double b) noexcept;

class FmuInput {
 public:
  FmuInput() = default;
  /// Reads `file` for the FMU described by `md`. Throws io::fmu::FmuError "file:line: …".
  FmuInput(const std::filesystem::path& file, const io::fmu::ModelDescription& md);

  [[nodiscard]] bool empty() const noexcept { return columns_.empty(); }
  /// The first input event after `time` (a repeated time, or a discrete input that changes),
  /// or +inf.
  [[nodiscard]] double next_event(double time) const noexcept;
  /// Sets the inputs' values for `time` (after an event at `time`: the later row's) into the
  /// FMU; the worst status of the calls.
  int apply(io::fmu::Fmu& fmu, double time);

 private:
  struct Column {
    const io::fmu::Variable* variable = nullptr;
    bool continuous = false;
    std::size_t first = 0;  ///< its first value in values_
    std::size_t size = 1;
  };
  /// The row in force at `time` for a discrete column (after events at `time`).
  [[nodiscard]] std::size_t discrete_row(double time) const noexcept;

  std::filesystem::path file_;
  std::vector<Column> columns_;
  std::vector<double> times_;
  /// cells_[row][value]: each value's text (arrays split), and as a number (continuous)
  std::vector<std::vector<std::string>> cells_;
  std::vector<std::vector<double>> numbers_;
  io::fmu::ValueSet values_;
};

}  // namespace hil::session
