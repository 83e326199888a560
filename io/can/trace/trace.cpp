#include "io/can/trace/trace.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace hil::io::can {

void Trace::add(rt::Nanoseconds time_ns, std::string_view interface, const CanFrame& frame) {
  if (!is_valid(frame)) throw std::invalid_argument("Trace::add: invalid frame");
  if (records_.size() == kMaxFrames) {
    throw std::length_error("more than " + std::to_string(kMaxFrames) +
                            " frames: split the log (e.g. with split -l) and play the parts");
  }
  if (last_interface_ >= interfaces_.size() || interfaces_[last_interface_] != interface) {
    const auto found = std::ranges::find(interfaces_, interface);
    if (found == interfaces_.end()) {
      if (interfaces_.size() == kMaxInterfaces) {
        throw std::length_error("more than 65536 interface names in one log");
      }
      interfaces_.emplace_back(interface);
      frames_per_interface_.push_back(0);
    }
    last_interface_ =
        static_cast<std::size_t>(std::ranges::find(interfaces_, interface) - interfaces_.begin());
  }
  ++frames_per_interface_[last_interface_];
  const std::size_t payload = frame.remote() ? 0 : frame.length;
  records_.push_back({.time_ns = time_ns,
                      .id = frame.id,
                      .data_offset = static_cast<std::uint32_t>(bytes_.size()),
                      .length = frame.length,
                      .flags = frame.flags,
                      .interface = static_cast<std::uint16_t>(last_interface_)});
  bytes_.insert(bytes_.end(), frame.data.begin(), frame.data.begin() + payload);
}

CanFrame Trace::frame(std::size_t i) const noexcept {
  const TraceRecord& r = records_[i];
  CanFrame f;
  f.id = r.id;
  f.length = r.length;
  f.flags = r.flags;
  if (!f.remote() && r.length > 0) std::memcpy(f.data.data(), &bytes_[r.data_offset], r.length);
  return f;
}

rt::Nanoseconds Trace::median_gap(rt::Nanoseconds fallback) const {
  std::vector<rt::Nanoseconds> gaps;
  gaps.reserve(records_.size());
  for (std::size_t i = 1; i < records_.size(); ++i) {
    const rt::Nanoseconds gap = records_[i].time_ns - records_[i - 1].time_ns;
    if (gap > 0) gaps.push_back(gap);
  }
  if (gaps.empty()) return fallback;
  const auto middle = gaps.begin() + static_cast<std::ptrdiff_t>((gaps.size() - 1) / 2);
  std::ranges::nth_element(gaps, middle);
  return *middle;
}

}  // namespace hil::io::can
