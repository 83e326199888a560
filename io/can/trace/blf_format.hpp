#pragma once
// The Vector BLF layout that blf_reader.hpp reads and blf_writer.hpp writes: signatures, header
// sizes, object types, body layouts and flag bits, as python-can and the vector_blf library
// read them (Vector publishes no specification). All little endian.
// Thread-safety: constants only.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace hil::io::can::blf {

constexpr std::string_view kFileSignature = "LOGG";
constexpr std::string_view kObjectSignature = "LOBJ";
constexpr std::size_t kFileHeaderFixed = 72;  // "LOGG", size, 8 version bytes, sizes, count,
                                              // 2 SYSTEMTIMEs ("<4sLBBBBBBBBQQLL8H8H")
constexpr std::size_t kFileHeaderSize = 144;  // as written (the rest is zero)
constexpr std::size_t kBaseHeader = 16;       // "LOBJ", header size, version, size, type
constexpr std::size_t kTimedHeader = 32;      // + flags, client, version, timestamp (v1; v2 alike)
constexpr std::size_t kContainerHeader = 16;  // compression, 6 pad, uncompressed size, 4 pad
constexpr std::uint32_t kFlagTenMicroseconds = 1;  // timestamp units
constexpr std::uint32_t kFlagNanoseconds = 2;
constexpr std::uint16_t kStored = 0;  // container compression
constexpr std::uint16_t kZlib = 2;
constexpr std::uint32_t kExtendedIdBit = 0x8000'0000;

// Object types
constexpr std::uint32_t kCanMessage = 1;
constexpr std::uint32_t kCanError = 2;
constexpr std::uint32_t kLogContainer = 10;
constexpr std::uint32_t kCanErrorExt = 73;
constexpr std::uint32_t kCanMessage2 = 86;
constexpr std::uint32_t kCanFdMessage = 100;
constexpr std::uint32_t kCanFdMessage64 = 101;
constexpr std::uint32_t kCanFdError64 = 104;

// Bodies
constexpr std::size_t kCanMessageBody = 16;       // channel u16, flags u8, dlc u8, id u32, data[8]
constexpr std::size_t kCanFdMessageBody = 84;     // … id u32, frame length u32, bit count u8,
                                                  // fd flags u8, valid bytes u8, 5 pad, data[64]
constexpr std::size_t kCanFdMessage64Fixed = 40;  // channel u8, dlc u8, valid u8, tx count u8,
                                                  // id u32, frame length u32, flags u32, …
constexpr std::size_t kCanErrorExtBody = 32;      // channel u16, length u16, flags u32, ecc u8,
                                                  // position u8, dlc u8, pad, frame length u32,
                                                  // id u32, ext flags u16, 2 pad, data[8]
constexpr std::uint8_t kTransmittedFlag = 0x01;   // CAN_MESSAGE / CAN_FD_MESSAGE flags
constexpr std::uint8_t kRemoteFlag = 0x80;
constexpr std::uint8_t kFdEdl = 0x1;  // CAN_FD_MESSAGE fd flags
constexpr std::uint8_t kFdBrs = 0x2;
constexpr std::uint8_t kFdEsi = 0x4;
constexpr std::uint32_t kFd64Remote = 0x0010;  // CAN_FD_MESSAGE_64 flags
constexpr std::uint32_t kFd64Edl = 0x1000;
constexpr std::uint32_t kFd64Brs = 0x2000;
constexpr std::uint32_t kFd64Esi = 0x4000;

}  // namespace hil::io::can::blf
