#include "io/input/evdev_stream.hpp"

#include <linux/input.h>

#include <algorithm>
#include <cstring>

namespace hil::io::input {

namespace {

EvdevEvent classify(const input_event& e, EvdevStreamCounters& counters) noexcept {
  EvdevEvent out{.code = e.code, .value = e.value};
  switch (e.type) {
    case EV_SYN:
      if (e.code == SYN_DROPPED) {
        ++counters.dropped;
        out.kind = EvdevEvent::Kind::dropped;
      } else {
        out.kind = EvdevEvent::Kind::sync;
      }
      break;
    case EV_ABS:
      out.kind = e.code <= ABS_MAX ? EvdevEvent::Kind::axis : EvdevEvent::Kind::other;
      break;
    case EV_KEY:
      out.kind = e.code <= KEY_MAX && e.value >= 0 && e.value <= 2 ? EvdevEvent::Kind::button
                                                                   : EvdevEvent::Kind::other;
      break;
    case EV_MSC:  // scan codes beside key events: nothing for the driver
      out.kind = EvdevEvent::Kind::sync;
      break;
    default:
      out.kind = EvdevEvent::Kind::other;
  }
  if (out.kind == EvdevEvent::Kind::other) {
    ++counters.garbage;
  } else {
    ++counters.events;
  }
  return out;
}

}  // namespace

std::size_t EvdevStream::record_size() noexcept { return sizeof(input_event); }

void EvdevStream::feed(std::span<const std::uint8_t> bytes,
                       const std::function<void(const EvdevEvent&)>& on_event) {
  const std::size_t size = record_size();
  const auto take = [&](const std::uint8_t* record) {
    input_event e{};
    std::memcpy(&e, record, size);
    const EvdevEvent event = classify(e, counters_);
    if (event.kind != EvdevEvent::Kind::other) on_event(event);
  };
  if (!pending_.empty()) {  // complete the record the last read split
    const std::size_t missing = std::min(size - pending_.size(), bytes.size());
    pending_.insert(pending_.end(), bytes.begin(), bytes.begin() + static_cast<long>(missing));
    bytes = bytes.subspan(missing);
    if (pending_.size() < size) return;
    take(pending_.data());
    pending_.clear();
  }
  while (bytes.size() >= size) {
    take(bytes.data());
    bytes = bytes.subspan(size);
  }
  pending_.assign(bytes.begin(), bytes.end());
}

void EvdevStream::end() noexcept {
  if (!pending_.empty()) ++counters_.short_reads;
  pending_.clear();
}

}  // namespace hil::io::input
