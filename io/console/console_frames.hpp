#pragma once
// The binary frames of `hilsim.console.v1` (docs/console.md, docs/api.md "capture"): a
// subscription's samples (value, minimum, maximum per channel and sample) and a capture's
// sample blocks, little-endian. Pure functions, no I/O.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace hil::io::console {

inline constexpr std::uint8_t kSamplesOp = 1;
inline constexpr std::uint8_t kBackfillFlag = 1;
inline constexpr std::size_t kSampleHeaderBytes = 32;

struct SampleFrameHeader {
  std::uint8_t flags = 0;
  std::uint16_t subscription = 0;
  std::uint32_t seq = 0;
  std::int64_t first_tick = 0;
  std::uint32_t tick_stride = 1;
  std::uint16_t samples = 0;
  std::uint16_t channels = 0;
  double wall_ms = 0.0;
};

/// Bytes of a frame of `samples` × `channels` (header, then values, minima, maxima).
[[nodiscard]] constexpr std::size_t sample_frame_bytes(std::size_t samples,
                                                       std::size_t channels) noexcept {
  return kSampleHeaderBytes + 3 * 8 * samples * channels;
}

/// Writes the header into `frame` (≥ kSampleHeaderBytes); the caller fills the arrays with
/// put_sample().
void put_header(std::span<std::uint8_t> frame, const SampleFrameHeader& h) noexcept;
/// Sets sample `i` of channel `c` (value, min, max) in a frame of `h.samples` × `h.channels`.
void put_sample(std::span<std::uint8_t> frame, const SampleFrameHeader& h, std::size_t c,
                std::size_t i, double value, double min, double max) noexcept;
/// Reads a frame's header back; nullopt when `frame` is not a whole samples frame.
[[nodiscard]] std::optional<SampleFrameHeader> read_header(
    std::span<const std::uint8_t> frame) noexcept;
/// Sample `i` of channel `c`, array `part` (0 value, 1 min, 2 max) of a frame read_header()
/// accepted.
[[nodiscard]] double read_sample(std::span<const std::uint8_t> frame, const SampleFrameHeader& h,
                                 std::size_t part, std::size_t c, std::size_t i) noexcept;

/// A capture's sample block (docs/api.md "capture"): a 32-byte header, then `samples` values
/// per channel, channel after channel (little-endian doubles).
inline constexpr std::uint8_t kCaptureOp = 2;
struct CaptureBlockHeader {
  std::uint16_t capture = 0;
  std::uint32_t seq = 0;  ///< blocks of this capture: 0, 1, …
  std::int64_t first_tick = 0;
  std::uint32_t decimation = 1;
  std::uint16_t samples = 0;
  std::uint16_t channels = 0;
  std::uint64_t lost = 0;  ///< samples of this capture lost so far
};
[[nodiscard]] constexpr std::size_t capture_block_bytes(std::size_t samples,
                                                        std::size_t channels) noexcept {
  return kSampleHeaderBytes + 8 * samples * channels;
}
/// A whole block: the header and `values` (channel-major, samples × channels).
[[nodiscard]] std::string capture_block(const CaptureBlockHeader& h,
                                        std::span<const double> values);

}  // namespace hil::io::console
