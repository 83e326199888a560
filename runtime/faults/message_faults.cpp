#include "runtime/faults/message_faults.hpp"

#include <bit>
#include <cstring>

namespace hil::runtime::detail {

using config::ByteMode;
using config::MessageOp;
using io::can::FrameFate;

MessageFaults::MessageFaults(io::can::CanBus* bus, bool tx, std::size_t index,
                             std::size_t held_capacity, std::uint64_t seed)
    : bus_(bus),
      tx_(tx),
      index_(index),
      held_(std::max<std::size_t>(held_capacity, 1)),
      rng_(seed) {
  faults_.reserve(kMaxFaults);
}

void MessageFaults::install() noexcept {
  if (installed_) return;
  installed_ = true;
  bus_->set_fault_hook(tx_, index_, this);
}

bool MessageFaults::add(Fault& fault) noexcept {
  if (!has_room()) return false;
  faults_.push_back(&fault);  // within the reserved capacity: no allocation
  return true;
}

Fault* MessageFaults::acting(MessageOp op) const noexcept {
  for (Fault* f : faults_) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    if (m.op != op || !f->active) continue;
    if (f->stop == Fault::Stop::count && f->count >= f->stop_count) continue;  // n frames done
    return f;
  }
  return nullptr;
}

bool MessageFaults::data_id(std::uint16_t& id) noexcept {
  Fault* f = acting(MessageOp::data_id);
  if (f == nullptr) return false;
  id = static_cast<std::uint16_t>(std::get<config::MessageFaultSpec>(f->settings.target).value);
  ++f->count;
  return true;
}

std::int64_t MessageFaults::cycle_ticks() const noexcept {
  for (Fault* f : faults_) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    if (m.op == MessageOp::cycle && f->active && f->cycle_ticks > 0) return f->cycle_ticks;
  }
  return 0;
}

void MessageFaults::before_encode(std::span<double> physical) noexcept {
  Fault* f = acting(MessageOp::signal);
  if (signal_wrote_) {  // an unbound signal keeps what the fault wrote: give back the truth
    double& v = physical[signal_index_];
    if (std::bit_cast<std::uint64_t>(v) == std::bit_cast<std::uint64_t>(signal_written_)) {
      v = signal_original_;
    }
    signal_wrote_ = false;
  }
  if (f == nullptr) return;
  const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
  signal_index_ = f->signal;
  signal_original_ = physical[f->signal];
  physical[f->signal] = m.signal_value;
  signal_written_ = m.signal_value;
  signal_wrote_ = true;
  ++f->count;
}

std::uint32_t MessageFaults::counter(std::uint32_t correct, std::uint32_t modulo) noexcept {
  Fault* f = acting(MessageOp::counter);
  if (f != nullptr) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    if (!counter_faulted_) {  // the onset: what freeze holds and last_valid resumes from
      counter_faulted_ = true;
      frozen_ = last_sent_;
      last_valid_ = last_sent_;
      continue_ = m.after;
    }
    const std::uint32_t natural = (correct + shift_) % modulo;
    const std::uint32_t out = [&]() -> std::uint32_t {
      switch (m.mode) {
        case ByteMode::value:
          return static_cast<std::uint32_t>(m.value % modulo);
        case ByteMode::offset:
          return static_cast<std::uint32_t>((natural + m.value) % modulo);
        case ByteMode::random:
          return static_cast<std::uint32_t>(rng_() % modulo);
        case ByteMode::freeze:
          return frozen_;
      }
      return natural;
    }();
    ++f->count;
    last_sent_ = out;
    return out;
  }
  if (counter_faulted_) {  // the first frame after: CANoe's three ways to go on
    counter_faulted_ = false;
    if (continue_ == config::CounterContinue::last_valid) {
      shift_ = (last_valid_ + 1 + modulo - correct % modulo) % modulo;
    } else if (continue_ == config::CounterContinue::last) {
      shift_ = (last_sent_ + 1 + modulo - correct % modulo) % modulo;
    }
  }
  last_sent_ = (correct + shift_) % modulo;
  return last_sent_;
}

void MessageFaults::after_crc(io::can::CanFrame& frame, std::int32_t crc_byte) noexcept {
  if (Fault* f = acting(MessageOp::crc); f != nullptr && crc_byte >= 0) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    std::uint8_t& b = frame.data[static_cast<std::size_t>(crc_byte)];
    if (!crc_faulted_) {
      crc_faulted_ = true;
      frozen_crc_ = last_crc_;
    }
    switch (m.mode) {
      case ByteMode::value:
        b = static_cast<std::uint8_t>(m.value);
        break;
      case ByteMode::offset:
        b = static_cast<std::uint8_t>(b + m.value);
        break;
      case ByteMode::random:
        b = static_cast<std::uint8_t>(rng_());
        break;
      case ByteMode::freeze:
        b = frozen_crc_;
        break;
    }
    ++f->count;
  } else if (crc_byte >= 0) {
    crc_faulted_ = false;
    last_crc_ = frame.data[static_cast<std::size_t>(crc_byte)];
  }
  if (Fault* f = acting(MessageOp::bits); f != nullptr) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    for (std::uint32_t i = 0; i < m.bit_size; ++i) {  // Intel: bit k is bit k%8 of byte k/8
      const std::uint32_t k = m.bit_start + i;
      if (k / 8 >= frame.data.size()) break;
      const auto mask = static_cast<std::uint8_t>(1U << (k % 8));
      std::uint8_t& byte = frame.data[k / 8];
      byte = ((m.value >> i) & 1U) != 0 ? byte | mask : byte & static_cast<std::uint8_t>(~mask);
    }
    ++f->count;
  }
  if (Fault* f = acting(MessageOp::dlc); f != nullptr) {
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    for (std::size_t i = m.length; i < frame.length; ++i) frame.data[i] = 0;
    frame.length = static_cast<std::uint8_t>(m.length);
    ++f->count;
  }
}

FrameFate MessageFaults::fate(std::int64_t tick, const io::can::CanFrame& frame) noexcept {
  if (Fault* f = acting(MessageOp::drop); f != nullptr) {
    ++f->count;
    return FrameFate::drop;
  }
  if (Fault* f = acting(MessageOp::cycle); f != nullptr && f->cycle_ticks == 0) {  // every_nth
    const auto& m = std::get<config::MessageFaultSpec>(f->settings.target);
    if (f->due_frames++ % m.every_nth != 0) {
      ++f->count;
      return FrameFate::drop;
    }
  }
  if (Fault* f = acting(MessageOp::delay); f != nullptr) {
    ++f->count;
    if (held_size_ == held_.size()) return FrameFate::drop;  // more than the ring: lost
    held_[(held_head_ + held_size_) % held_.size()] = {tick + f->delay_ticks, frame};
    ++held_size_;
    return FrameFate::held;
  }
  if (Fault* f = acting(MessageOp::duplicate); f != nullptr) {
    ++f->count;
    return FrameFate::twice;
  }
  return FrameFate::pass;
}

bool MessageFaults::due(std::int64_t tick, io::can::CanFrame& out) noexcept {
  if (held_size_ == 0 || held_[held_head_].first > tick) return false;
  out = held_[held_head_].second;
  held_head_ = (held_head_ + 1) % held_.size();
  --held_size_;
  return true;
}

}  // namespace hil::runtime::detail
