#pragma once
// AUTOSAR E2E settings as a rig file and a DBC write them (docs/can.md "AUTOSAR E2E"): profile
// and data-id-mode names, and hilsim's DBC message attributes E2E_Profile, E2E_DataID,
// E2E_DataIDMode, E2E_DataIDList, E2E_Offset, E2E_CRCOffset, E2E_CounterOffset,
// E2E_DataIDNibbleOffset, E2E_MaxDeltaCounter. Setup phase (allocates).

#include <optional>
#include <string>
#include <string_view>

#include "io/can/dbc/dbc_model.hpp"
#include "io/can/e2e/profile.hpp"

namespace hil::io::can {

/// "P01", "p1", "1", "PROFILE_01" → p01; nullopt for anything else (profiles 1, 2, 5, 11, 22).
[[nodiscard]] std::optional<e2e::Profile> parse_e2e_profile(std::string_view text);
/// "both", "alt", "low", "nibble" (any case) → the mode; nullopt otherwise.
[[nodiscard]] std::optional<e2e::DataIdMode> parse_data_id_mode(std::string_view text);
[[nodiscard]] std::string_view data_id_mode_name(e2e::DataIdMode mode) noexcept;

/// The E2E configuration a message's E2E_* attributes give (nullopt: no E2E_Profile on it);
/// a malformed value sets `problem` ("file:line: BO_ 'X': E2E_DataIDMode "y" is …").
[[nodiscard]] std::optional<e2e::ProfileSpec> e2e_from_attributes(const dbc::Database& db,
                                                                  const dbc::Message& message,
                                                                  std::string& problem);

/// "P01 data id 0x123 (both)", "P02 data id list 1,2,…", "P05 data id 0x0456 at bit 0".
[[nodiscard]] std::string describe_e2e(const e2e::ProfileSpec& profile);

}  // namespace hil::io::can
