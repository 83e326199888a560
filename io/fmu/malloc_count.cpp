#include "io/fmu/malloc_count.hpp"

// Defined by counting_malloc.cpp when the program links it; weak: absent otherwise.
extern "C" std::uint64_t hil_thread_malloc_count() noexcept __attribute__((weak));

namespace hil::io::fmu {

std::optional<std::uint64_t> thread_malloc_count() noexcept {
  if (&hil_thread_malloc_count == nullptr) return std::nullopt;
  return hil_thread_malloc_count();
}

}  // namespace hil::io::fmu
