// A counting malloc for the whole process (io/fmu/malloc_count.hpp): malloc, calloc, realloc,
// posix_memalign, aligned_alloc and memalign count one allocation for the calling thread and
// forward to glibc's own (__libc_*); free forwards. Linked into hilsim (and tests), so the FMU
// probe can see what an FMU's C code allocates in doStep. The count is a thread_local of
// initial-exec TLS in the executable: using it allocates nothing.

#include <cerrno>
#include <cstddef>
#include <cstdint>

// Under a sanitizer its runtime owns malloc: no counting there (malloc_count.hpp: nullopt).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HIL_SANITIZER_OWNS_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HIL_SANITIZER_OWNS_MALLOC 1
#endif
#endif

#ifndef HIL_SANITIZER_OWNS_MALLOC

extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void __libc_free(void* p);
}

namespace {
thread_local std::uint64_t t_allocations __attribute__((tls_model("initial-exec"))) = 0;
}  // namespace

// NOLINTBEGIN: these are the C library's names and signatures, replaced on purpose
extern "C" {

std::uint64_t hil_thread_malloc_count() noexcept { return t_allocations; }

void* malloc(std::size_t size) {
  ++t_allocations;
  return __libc_malloc(size);
}

void* calloc(std::size_t count, std::size_t size) {
  ++t_allocations;
  return __libc_calloc(count, size);
}

void* realloc(void* p, std::size_t size) {
  ++t_allocations;
  return __libc_realloc(p, size);
}

void free(void* p) { __libc_free(p); }

void* memalign(std::size_t alignment, std::size_t size) {
  ++t_allocations;
  return __libc_memalign(alignment, size);
}

void* aligned_alloc(std::size_t alignment, std::size_t size) {
  ++t_allocations;
  return __libc_memalign(alignment, size);
}

int posix_memalign(void** out, std::size_t alignment, std::size_t size) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  ++t_allocations;
  void* p = __libc_memalign(alignment, size);
  if (p == nullptr) return ENOMEM;
  *out = p;
  return 0;
}

}  // extern "C"
// NOLINTEND

#endif  // HIL_SANITIZER_OWNS_MALLOC
