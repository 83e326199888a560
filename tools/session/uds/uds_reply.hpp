#pragma once
// The reply to an API `uds` request (docs/api.md "uds"): what the rig's tester
// (runtime/diag/diag_tester.hpp) got back, as the JSON body the console sends.
// Thread-safety: a function of its arguments.

#include <nlohmann/json.hpp>

#include "runtime/diag/diag_tester.hpp"

namespace hil::session {

/// {"tick", "sent_tick", "response" (hex), "text" (described), "negative" (the NRC, 0 for a
/// positive response), "pending", "timed_out", "refused"}.
[[nodiscard]] nlohmann::json uds_reply(const runtime::UdsResult& result);

}  // namespace hil::session
