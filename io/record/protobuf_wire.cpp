#include "io/record/protobuf_wire.hpp"

namespace hil::io::record::wire {

bool WireReader::varint(std::uint64_t& value) noexcept {
  value = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (pos_ >= data_.size()) return false;
    const std::uint8_t byte = data_[pos_++];
    value |= std::uint64_t{byte & 0x7FU} << shift;
    if ((byte & 0x80U) == 0) return true;
  }
  return false;  // more than ten bytes
}

bool WireReader::fixed(std::size_t bytes, std::uint64_t& value) noexcept {
  if (data_.size() - pos_ < bytes) return false;
  value = 0;
  std::memcpy(&value, data_.data() + pos_, bytes);
  pos_ += bytes;
  return true;
}

bool WireReader::next(WireField& field) noexcept {
  if (error_ || pos_ == data_.size()) return false;
  std::uint64_t tag = 0;
  bool ok = varint(tag);
  const std::uint64_t number = tag >> 3;
  ok = ok && number > 0 && number < (1U << 29);
  field.number = static_cast<std::uint32_t>(number);
  field.type = static_cast<WireType>(tag & 7U);
  field.bytes = {};
  if (ok) {
    switch (field.type) {
      case WireType::varint:
        ok = varint(field.scalar);
        break;
      case WireType::fixed64:
        ok = fixed(8, field.scalar);
        break;
      case WireType::fixed32:
        ok = fixed(4, field.scalar);
        break;
      case WireType::length_delimited: {
        std::uint64_t length = 0;
        ok = varint(length) && length <= data_.size() - pos_;
        if (ok) {
          field.bytes = data_.subspan(pos_, static_cast<std::size_t>(length));
          pos_ += static_cast<std::size_t>(length);
        }
        break;
      }
      default:
        ok = false;  // groups (3, 4) and reserved types
    }
  }
  error_ = !ok;
  return ok;
}

}  // namespace hil::io::record::wire
