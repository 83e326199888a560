// libFuzzer target for the product MCAP reader and the telemetry decoder on top of it:
// any bytes must give a report (complete, truncated or corrupt), never a crash, a hang or
// an out-of-bounds read. Seeds: small recorded files in tests/fuzz/corpus/mcap/.

#include <cstddef>
#include <cstdint>
#include <span>

#include "io/record/telemetry_reader.hpp"

namespace {

struct Touch final : hil::io::record::TelemetryVisitor {
  void on_sample(std::size_t, std::uint64_t, const hil::io::record::TelemetrySample& s) override {
    for (const double v : s.values) sum += v;
  }
  void on_event(std::uint64_t, const hil::io::record::TelemetryEvent& e) override {
    sum += static_cast<double>(e.kind.size() + e.text.size());
  }
  double sum = 0.0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Touch touch;
  const auto report = hil::io::record::read_telemetry(std::span(data, size), touch);
  return report.mcap.valid_bytes <= size ? 0 : 1;
}
