// libFuzzer target for the BLF reader (io/can/trace/blf_reader.hpp): arbitrary bytes as a BLF
// file. Besides crashes, leaks and sanitizer reports it traps when a promise breaks: the reader
// throws after its header was accepted, a bad object's message does not start with
// "fuzz.blf: byte ", a frame it returns is not a valid CAN frame, or the counts disagree.
//
//   cmake --preset fuzz && cmake --build --preset fuzz --target run_blf_fuzz

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "io/can/trace/blf_reader.hpp"

namespace {

void require(bool promise) {
  if (!promise) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::unique_ptr<hil::io::can::BlfReader> reader;
  try {
    reader = std::make_unique<hil::io::can::BlfReader>(in, "fuzz.blf");
  } catch (const std::runtime_error&) {
    return 0;  // not a BLF header: refused up front
  }
  using Status = hil::io::can::BlfReader::Status;
  std::size_t frames = 0;
  std::size_t bad = 0;
  for (Status s = reader->next(); s != Status::end; s = reader->next()) {
    if (s == Status::frame) {
      require(hil::io::can::is_valid(reader->frame().frame));
      ++frames;
    } else {
      require(reader->describe_bad_object().rfind("fuzz.blf: byte ", 0) == 0);
      ++bad;
    }
  }
  require(reader->frames() == frames && reader->bad_objects() == bad);
  return 0;
}
