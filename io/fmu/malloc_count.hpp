#pragma once
// How many heap allocations the calling thread has made, counted by the counting malloc
// (io/fmu/counting_malloc.cpp) that hilsim links in: it replaces malloc, calloc, realloc and
// the aligned allocators for the whole process — an FMU's C code included, which a counter of
// operator new does not see — forwarding to glibc's. A program without it gets nullopt.
// Thread-safety: the count is the calling thread's; no locking.

#include <cstdint>
#include <optional>

namespace hil::io::fmu {

[[nodiscard]] std::optional<std::uint64_t> thread_malloc_count() noexcept;

}  // namespace hil::io::fmu
