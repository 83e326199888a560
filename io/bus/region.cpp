#include "io/bus/region.hpp"

#include <cstring>

namespace hil::io::bus {

RegionView::RegionView(std::byte* base, const RegionDescriptor& d) noexcept
    : control_(reinterpret_cast<RegionControl*>(base + d.control_offset)), n_(d.value_count) {
  auto* slot0 = reinterpret_cast<std::uint64_t*>(base + d.slot_offset);
  auto* slot1 = reinterpret_cast<std::uint64_t*>(base + d.slot_offset + d.slot_stride);
  latch_ = rt::LatchView(&control_->latch_seq, slot0, slot1, kSlotHeaderWords + n_);
}

rt::LatchRead RegionView::read(RegionSnapshot& out, unsigned max_tries) const noexcept {
  std::uint64_t words[kSlotHeaderWords + kMaxRegionValues];
  const rt::LatchRead r = latch_.read(words, kSlotHeaderWords + n_, max_tries);
  if (r.ok) {
    std::memcpy(&out.head, words, sizeof(SlotHeader));
    std::memcpy(out.values, words + kSlotHeaderWords, 8 * n_);
  }
  return r;
}

}  // namespace hil::io::bus
