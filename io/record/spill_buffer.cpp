#include "io/record/spill_buffer.hpp"

#include <cerrno>
#include <system_error>

namespace hil::io::record {

SpillBuffer::SpillBuffer() : file_(std::tmpfile()) {}

void SpillBuffer::append(std::span<const std::uint8_t> bytes) {
  if (file_ == nullptr) {
    memory_.insert(memory_.end(), bytes.begin(), bytes.end());
  } else if (std::fwrite(bytes.data(), 1, bytes.size(), file_.get()) != bytes.size()) {
    throw std::system_error(errno, std::generic_category(),
                            "cannot keep the MCAP chunk indexes in a temporary file");
  }
  size_ += bytes.size();
}

void SpillBuffer::replay(const std::function<void(std::span<const std::uint8_t>)>& take) const {
  if (file_ == nullptr) {
    if (!memory_.empty()) take(memory_);
    return;
  }
  std::fflush(file_.get());
  std::rewind(file_.get());
  std::vector<std::uint8_t> block(std::size_t{64} * 1024);
  for (std::uint64_t left = size_; left > 0;) {
    const std::size_t n = std::fread(block.data(), 1, block.size(), file_.get());
    if (n == 0) {
      throw std::system_error(errno, std::generic_category(),
                              "cannot read the MCAP chunk indexes back from their temporary file");
    }
    take({block.data(), n});
    left -= n;
  }
  std::fseek(file_.get(), 0, SEEK_END);
}

}  // namespace hil::io::record
