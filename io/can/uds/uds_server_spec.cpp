// validate() and all_dids() of uds_server_spec.hpp (setup phase).

#include "io/can/uds/uds_server_spec.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "io/can/uds/dtc_store.hpp"

namespace hil::io::can::uds {
namespace {

std::string hex4(std::uint16_t id) {
  char text[8];
  std::snprintf(text, sizeof text, "%04X", static_cast<unsigned>(id));
  return text;
}

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

void check_sessions(const std::string& what, SessionMask mask) {
  if (mask == 0 || (mask & ~kAllSessions) != 0) {
    fail(what +
         " names no session or one that is not simulated (default, programming, "
         "extended)");
  }
}

void check_level(const std::string& what, std::uint8_t level) {
  if (level > 1) {
    fail(what + " security level " + std::to_string(level) + ": only level 1 (or 0, none) exists");
  }
}

void check_did(const DidSpec& d) {
  const std::string what = "DID " + hex4(d.id) + (d.name.empty() ? "" : " '" + d.name + "'");
  if (!d.text.empty()) {
    if (d.length != 0 && d.length != d.text.size()) {
      fail(what + ": length " + std::to_string(d.length) + " differs from its text's " +
           std::to_string(d.text.size()) + " characters");
    }
    if (d.writable) fail(what + ": a text DID is read-only");
  } else if (d.length == 0) {
    fail(what + ": length 0 (a DID that is not text needs a length)");
  }
  const std::size_t length = d.text.empty() ? d.length : d.text.size();
  if (length > kMaxDidLength) {
    fail(what + ": length " + std::to_string(length) + " exceeds " + std::to_string(kMaxDidLength) +
         " (a response is at most " + std::to_string(kMaxMessageBytes) + " bytes)");
  }
  if (d.writable) check_sessions(what + " write_sessions", d.write_sessions);
  check_level(what + " write", d.write_security_level);
}

void check_routine(const RoutineSpec& r) {
  const std::string what = "routine " + hex4(r.id) + (r.name.empty() ? "" : " '" + r.name + "'");
  if (r.duration_ns < 0) fail(what + ": negative duration_ns");
  check_sessions(what + " sessions", r.sessions);
  check_level(what, r.security_level);
}

template <class Spec>
void check_unique(const std::vector<Spec>& items, const char* kind) {
  std::vector<std::uint16_t> ids;
  ids.reserve(items.size());
  for (const Spec& s : items) ids.push_back(s.id);
  std::sort(ids.begin(), ids.end());
  const auto dup = std::adjacent_find(ids.begin(), ids.end());
  if (dup != ids.end()) fail(std::string(kind) + " " + hex4(*dup) + " is configured twice");
}

}  // namespace

std::vector<DidSpec> all_dids(const ServerSpec& spec) {
  std::vector<DidSpec> dids = spec.dids;
  const auto add_text = [&](std::uint16_t id, const char* name, const std::string& text) {
    if (!text.empty()) dids.push_back({.id = id, .name = name, .text = text});
  };
  // ISO 14229-1 Annex C.1 (dataIdentifier definitions): F187 vehicleManufacturerSpare-
  // PartNumber, F18C ECUSerialNumber, F190 VIN.
  add_text(0xF190, "VIN", spec.vin);
  add_text(0xF187, "spare part number", spec.part_number);
  add_text(0xF18C, "ECU serial number", spec.serial_number);
  return dids;
}

void validate(const ServerSpec& spec) {
  if (spec.s3_ns <= 0) fail("s3_ns must be positive, got " + std::to_string(spec.s3_ns));
  if (spec.p2_star_ms % 10 != 0) {
    fail("p2_star_ms " + std::to_string(spec.p2_star_ms) +
         " is not a multiple of 10 ms (P2*server_max is sent in 10 ms units)");
  }
  if (!spec.vin.empty() && spec.vin.size() != 17) {
    fail("vin '" + spec.vin + "' has " + std::to_string(spec.vin.size()) +
         " characters, a VIN has 17 (ISO 3779)");
  }
  const std::vector<DidSpec> dids = all_dids(spec);
  for (const DidSpec& d : dids) check_did(d);
  check_unique(dids, "DID");
  for (const RoutineSpec& r : spec.routines) check_routine(r);
  check_unique(spec.routines, "routine");
  if (spec.security.seed == 0) fail("security.seed must not be 0 (the seed sequence would stay 0)");
  if (spec.security.max_attempts == 0) fail("security.max_attempts must be at least 1");
  if (spec.security.delay_ns < 0) fail("security.delay_ns must not be negative");
  if (spec.snapshot_did) {
    const auto it = std::find_if(dids.begin(), dids.end(),
                                 [&](const DidSpec& d) { return d.id == *spec.snapshot_did; });
    if (it == dids.end()) fail("snapshot_did " + hex4(*spec.snapshot_did) + " is not a DID");
    const std::size_t length = it->text.empty() ? it->length : it->text.size();
    if (length > kMaxSnapshotBytes) {
      fail("snapshot_did " + hex4(*spec.snapshot_did) + " is " + std::to_string(length) +
           " bytes long, a snapshot holds at most " + std::to_string(kMaxSnapshotBytes));
    }
  }
}

}  // namespace hil::io::can::uds
