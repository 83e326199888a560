#include "io/console/console_frames.hpp"

#include <algorithm>
#include <cstring>

namespace hil::io::console {

namespace {

template <typename T>
void put(std::span<std::uint8_t> out, std::size_t at, T v) noexcept {
  std::memcpy(out.data() + at, &v, sizeof v);
}
template <typename T>
T get(std::span<const std::uint8_t> in, std::size_t at) noexcept {
  T v{};
  std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

std::size_t array_offset(const SampleFrameHeader& h, std::size_t part, std::size_t c,
                         std::size_t i) noexcept {
  const std::size_t n = std::size_t{h.samples} * h.channels;
  return kSampleHeaderBytes + 8 * (part * n + c * h.samples + i);
}

}  // namespace

void put_header(std::span<std::uint8_t> frame, const SampleFrameHeader& h) noexcept {
  put<std::uint8_t>(frame, 0, kSamplesOp);
  put<std::uint8_t>(frame, 1, h.flags);
  put<std::uint16_t>(frame, 2, h.subscription);
  put<std::uint32_t>(frame, 4, h.seq);
  put<std::int64_t>(frame, 8, h.first_tick);
  put<std::uint32_t>(frame, 16, h.tick_stride);
  put<std::uint16_t>(frame, 20, h.samples);
  put<std::uint16_t>(frame, 22, h.channels);
  put<double>(frame, 24, h.wall_ms);
}

void put_sample(std::span<std::uint8_t> frame, const SampleFrameHeader& h, std::size_t c,
                std::size_t i, double value, double min, double max) noexcept {
  put<double>(frame, array_offset(h, 0, c, i), value);
  put<double>(frame, array_offset(h, 1, c, i), min);
  put<double>(frame, array_offset(h, 2, c, i), max);
}

std::optional<SampleFrameHeader> read_header(std::span<const std::uint8_t> frame) noexcept {
  if (frame.size() < kSampleHeaderBytes || get<std::uint8_t>(frame, 0) != kSamplesOp) {
    return std::nullopt;
  }
  SampleFrameHeader h;
  h.flags = get<std::uint8_t>(frame, 1);
  h.subscription = get<std::uint16_t>(frame, 2);
  h.seq = get<std::uint32_t>(frame, 4);
  h.first_tick = get<std::int64_t>(frame, 8);
  h.tick_stride = get<std::uint32_t>(frame, 16);
  h.samples = get<std::uint16_t>(frame, 20);
  h.channels = get<std::uint16_t>(frame, 22);
  h.wall_ms = get<double>(frame, 24);
  if (frame.size() != sample_frame_bytes(h.samples, h.channels)) return std::nullopt;
  return h;
}

std::string capture_block(const CaptureBlockHeader& h, std::span<const double> values) {
  std::string out(capture_block_bytes(h.samples, h.channels), '\0');
  const std::span<std::uint8_t> bytes(reinterpret_cast<std::uint8_t*>(out.data()), out.size());
  put<std::uint8_t>(bytes, 0, kCaptureOp);
  put<std::uint8_t>(bytes, 1, 0);
  put<std::uint16_t>(bytes, 2, h.capture);
  put<std::uint32_t>(bytes, 4, h.seq);
  put<std::int64_t>(bytes, 8, h.first_tick);
  put<std::uint32_t>(bytes, 16, h.decimation);
  put<std::uint16_t>(bytes, 20, h.samples);
  put<std::uint16_t>(bytes, 22, h.channels);
  put<std::uint64_t>(bytes, 24, h.lost);
  std::memcpy(out.data() + kSampleHeaderBytes, values.data(),
              std::min(values.size(), std::size_t{h.samples} * h.channels) * sizeof(double));
  return out;
}

double read_sample(std::span<const std::uint8_t> frame, const SampleFrameHeader& h,
                   std::size_t part, std::size_t c, std::size_t i) noexcept {
  return get<double>(frame, array_offset(h, part, c, i));
}

}  // namespace hil::io::console
