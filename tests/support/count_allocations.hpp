#pragma once
// Replaces the global operator new/delete with malloc/free plus a counter, so that a test can
// prove a real-time path allocates nothing. Include it in exactly ONE source file of a test
// binary (it defines the replacement operators), and make that binary hold nothing else that
// minds the replacement. Thread-safety: the counter is a relaxed atomic (a count, no ordering).

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

namespace hil::testing {
inline std::atomic<std::size_t> g_allocation_count{0};

/// Heap allocations (operator new calls) since the program started.
inline std::size_t allocation_count() noexcept {
  return g_allocation_count.load(std::memory_order_relaxed);
}
}  // namespace hil::testing

// The replacements pair malloc with free throughout; GCC cannot see that across inlining.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  hil::testing::g_allocation_count.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) { return operator new(size); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): all or nothing, or a
// sanitizer's own operator new meets our free.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  hil::testing::g_allocation_count.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept {
  return operator new(size, tag);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
