#include "io/record/mcap/chunk_compression.hpp"

#include <lz4frame.h>
#include <zstd.h>

#include <stdexcept>
#include <string>

namespace hil::io::record {

std::string_view mcap_name(Compression c) noexcept {
  switch (c) {
    case Compression::zstd:
      return "zstd";
    case Compression::lz4:
      return "lz4";
    case Compression::none:
      break;
  }
  return "";
}

std::optional<Compression> compression_named(std::string_view name) noexcept {
  if (name.empty() || name == "none") return Compression::none;
  if (name == "zstd") return Compression::zstd;
  if (name == "lz4") return Compression::lz4;
  return std::nullopt;
}

ChunkCompressor::ChunkCompressor(Compression c, int level) : compression_(c), level_(level) {
  if (c == Compression::zstd) {
    zstd_ = ZSTD_createCCtx();
    if (zstd_ == nullptr) throw std::runtime_error("zstd: cannot create a compression context");
  }
}

ChunkCompressor::~ChunkCompressor() { ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_)); }

std::span<const std::uint8_t> ChunkCompressor::compress(std::span<const std::uint8_t> records) {
  switch (compression_) {
    case Compression::none:
      return records;
    case Compression::zstd: {
      out_.resize(ZSTD_compressBound(records.size()));
      const std::size_t n = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(zstd_), out_.data(),
                                              out_.size(), records.data(), records.size(), level_);
      if (ZSTD_isError(n) != 0U) {
        throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
      }
      return {out_.data(), n};
    }
    case Compression::lz4: {
      LZ4F_preferences_t prefs{};
      prefs.frameInfo.contentSize = records.size();  // readers may size their buffer from it
      out_.resize(LZ4F_compressFrameBound(records.size(), &prefs));
      const std::size_t n =
          LZ4F_compressFrame(out_.data(), out_.size(), records.data(), records.size(), &prefs);
      if (LZ4F_isError(n) != 0U)
        throw std::runtime_error(std::string("lz4: ") + LZ4F_getErrorName(n));
      return {out_.data(), n};
    }
  }
  return records;
}

void decompress(std::string_view compression, std::span<const std::uint8_t> data,
                std::uint64_t uncompressed_size, std::vector<std::uint8_t>& out) {
  if (uncompressed_size > (std::uint64_t{1} << 34)) {
    throw std::runtime_error("an uncompressed size of " + std::to_string(uncompressed_size) +
                             " bytes is beyond any chunk this reader takes (16 GiB)");
  }
  out.resize(static_cast<std::size_t>(uncompressed_size));
  const std::string name(compression);
  if (compression == "zstd") {
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), data.data(), data.size());
    if (ZSTD_isError(n) != 0U)
      throw std::runtime_error("zstd: " + std::string(ZSTD_getErrorName(n)));
    if (n != out.size()) {
      throw std::runtime_error("zstd: " + std::to_string(n) + " bytes where the chunk says " +
                               std::to_string(out.size()));
    }
    return;
  }
  if (compression == "lz4") {
    LZ4F_dctx* dctx = nullptr;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)) != 0U) {
      throw std::runtime_error("lz4: cannot create a decompression context");
    }
    std::size_t produced = 0;
    std::size_t consumed = 0;
    std::size_t status = 1;
    while (status != 0 && consumed < data.size()) {
      std::size_t dst = out.size() - produced;
      std::size_t src = data.size() - consumed;
      status =
          LZ4F_decompress(dctx, out.data() + produced, &dst, data.data() + consumed, &src, nullptr);
      if (LZ4F_isError(status) != 0U) {
        LZ4F_freeDecompressionContext(dctx);
        throw std::runtime_error(std::string("lz4: ") + LZ4F_getErrorName(status));
      }
      produced += dst;
      consumed += src;
      if (dst == 0 && src == 0) break;
    }
    LZ4F_freeDecompressionContext(dctx);
    if (status != 0 || produced != out.size()) {
      throw std::runtime_error("lz4: the frame gives " + std::to_string(produced) +
                               " bytes where the chunk says " + std::to_string(out.size()));
    }
    return;
  }
  throw std::runtime_error("chunk compressed with '" + name +
                           "': this reader knows zstd, lz4 and uncompressed chunks");
}

}  // namespace hil::io::record
