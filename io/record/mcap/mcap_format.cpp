#include "io/record/mcap/mcap_format.hpp"

namespace hil::io::record {

std::string_view to_string(Opcode op) noexcept {
  switch (op) {
    case Opcode::header:
      return "header";
    case Opcode::footer:
      return "footer";
    case Opcode::schema:
      return "schema";
    case Opcode::channel:
      return "channel";
    case Opcode::message:
      return "message";
    case Opcode::chunk:
      return "chunk";
    case Opcode::message_index:
      return "message index";
    case Opcode::chunk_index:
      return "chunk index";
    case Opcode::attachment:
      return "attachment";
    case Opcode::attachment_index:
      return "attachment index";
    case Opcode::statistics:
      return "statistics";
    case Opcode::metadata:
      return "metadata";
    case Opcode::metadata_index:
      return "metadata index";
    case Opcode::summary_offset:
      return "summary offset";
    case Opcode::data_end:
      return "data end";
  }
  return "unknown opcode";
}

}  // namespace hil::io::record
