#pragma once
// Compression of MCAP chunks (https://mcap.dev/spec#chunk-op0x06): zstd (the default of the
// telemetry recorder) or lz4 (LZ4 frame format), as the standard MCAP readers expect them.
//
// Thread-safety: a ChunkCompressor is used by one thread at a time; decompress() is reentrant.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace hil::io::record {

enum class Compression : std::uint8_t { none, zstd, lz4 };

/// The chunk record's `compression` string: "", "zstd", "lz4".
[[nodiscard]] std::string_view mcap_name(Compression c) noexcept;
/// "none", "zstd" or "lz4" (also "" for none); nullopt for anything else.
[[nodiscard]] std::optional<Compression> compression_named(std::string_view name) noexcept;

class ChunkCompressor {
 public:
  /// Setup: `level` for zstd (1..19; 3 by default), ignored by lz4 and none.
  explicit ChunkCompressor(Compression c, int level = 3);
  ~ChunkCompressor();
  ChunkCompressor(const ChunkCompressor&) = delete;
  ChunkCompressor& operator=(const ChunkCompressor&) = delete;

  [[nodiscard]] Compression compression() const noexcept { return compression_; }
  /// `records` compressed (for none: `records` itself); valid until the next call. Throws
  /// std::runtime_error when the library fails.
  [[nodiscard]] std::span<const std::uint8_t> compress(std::span<const std::uint8_t> records);

 private:
  Compression compression_;
  int level_;
  void* zstd_ = nullptr;  // ZSTD_CCtx, reused across chunks
  std::vector<std::uint8_t> out_;
};

/// A chunk's records from its compressed bytes into `out` (resized to `uncompressed_size`).
/// Throws std::runtime_error naming the compression and what went wrong (an unknown
/// compression, damaged data, a size that does not match).
void decompress(std::string_view compression, std::span<const std::uint8_t> data,
                std::uint64_t uncompressed_size, std::vector<std::uint8_t>& out);

}  // namespace hil::io::record
