// libFuzzer target for the cannelloni packet decoder (io/can/transport/cannelloni_codec.hpp):
// arbitrary bytes as a UDP payload. Besides crashes and sanitizer reports it traps when a promise
// breaks: a rejected packet that still hands out frames, an accepted one whose frame count
// differs from its header or that yields an invalid frame, or one that does not survive
// re-encoding (same size, same frames, same bytes but for ignored FD flag bits).
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target cannelloni_fuzz
//   cmake --build --preset fuzz --target run_cannelloni_fuzz   # 60 s with the seed corpus

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "io/can/transport/cannelloni_codec.hpp"

namespace {

using hil::io::can::CanFrame;
namespace cn = hil::io::can::cannelloni;

void require(bool promise) {
  if (!promise) __builtin_trap();
}

std::vector<CanFrame> read_all(cn::PacketReader& reader) {
  std::vector<CanFrame> frames;
  CanFrame f;
  while (reader.next(f)) frames.push_back(f);
  return frames;
}

/// The input with the FD flags bytes reduced to BRS/ESI: what an encoder writes back.
std::vector<std::uint8_t> canonical(std::span<const std::uint8_t> packet,
                                    const std::vector<CanFrame>& frames) {
  std::vector<std::uint8_t> out(packet.begin(), packet.end());
  std::size_t offset = cn::kHeaderBytes;
  for (const CanFrame& f : frames) {
    if (f.fd()) out[offset + 5] &= cn::kFdBrs | cn::kFdEsi;
    offset += cn::encoded_size(f);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> packet(data, size);
  cn::PacketReader reader(packet);
  const std::vector<CanFrame> frames = read_all(reader);
  if (reader.error() != cn::PacketError::none) {
    require(frames.empty());
    return 0;
  }
  require(frames.size() == reader.header().frame_count);
  for (const CanFrame& f : frames) require(hil::io::can::is_valid(f));

  std::vector<std::uint8_t> buffer(size);  // the same size must hold the same frames
  cn::PacketWriter writer(buffer);
  writer.begin(reader.header().sequence);
  for (const CanFrame& f : frames) require(writer.append(f) == cn::PacketWriter::Append::appended);
  const std::span<const std::uint8_t> encoded = writer.finish();
  require(encoded.size() == size);
  const std::vector<std::uint8_t> expected = canonical(packet, frames);
  require(std::equal(encoded.begin(), encoded.end(), expected.begin(), expected.end()));

  cn::PacketReader again(encoded);
  require(again.error() == cn::PacketError::none && read_all(again) == frames);

  cn::SequenceTracker tracker;  // the payload bytes as a stream of sequence numbers
  for (const std::uint8_t s : packet) {
    const cn::SequenceTracker::Result r = tracker.observe(s);
    require(r.order != cn::SequenceTracker::Order::gap || (r.missing >= 1 && r.missing <= 127));
  }
  return 0;
}
