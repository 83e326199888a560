#pragma once
// The MCAP container format (https://mcap.dev/spec, major version 0): magic, record opcodes
// and the little-endian primitive encoding every record is made of. Shared by the writer and
// the reader. Thread-safety: constants and pure functions only.

#include <array>
#include <cstdint>
#include <string_view>

namespace hil::io::record {

/// `\x89MCAP0\r\n`: the first and last eight bytes of every MCAP file.
inline constexpr std::array<std::uint8_t, 8> kMcapMagic{0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'};

/// Bytes before a record's body: opcode (u8) + content length (u64).
inline constexpr std::size_t kRecordPrefixBytes = 9;

enum class Opcode : std::uint8_t {
  header = 0x01,
  footer = 0x02,
  schema = 0x03,
  channel = 0x04,
  message = 0x05,
  chunk = 0x06,
  message_index = 0x07,
  chunk_index = 0x08,
  attachment = 0x09,
  attachment_index = 0x0A,
  statistics = 0x0B,
  metadata = 0x0C,
  metadata_index = 0x0D,
  summary_offset = 0x0E,
  data_end = 0x0F,
};

/// "chunk", "message index", …; "opcode 0x42" for an unknown value.
[[nodiscard]] std::string_view to_string(Opcode op) noexcept;

/// The schema encoding and message encoding of every hilsim topic.
inline constexpr std::string_view kProtobufEncoding = "protobuf";

}  // namespace hil::io::record
