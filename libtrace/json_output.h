// JSON lines (oformat=json): one JSON object per line on stdout for each
// firing, aggregation, fault and drop, told apart by their "type" member.
// The schema is written down in dtx(1) under JSON OUTPUT; in short:
//   {"type":"probe","cpu":0,"timestamp":N,"probe":{"id":N,"provider":..,
//    "module":..,"function":..,"name":..},"actions":[ACTION...]}
//   {"type":"aggregation","source":"printa"|"exit","aggregations":[{"name":..,
//    "function":..}],"entries":[{"keys":[VALUE...],"values":[VALUE...]}]}
//   {"type":"error","epid":N,"probe":{...},"action":N,"fault":"bad-address",
//    "message":"invalid address (0x0)","address":N,"location":"f.d:3:9"}
//   {"type":"drop","kind":"ring-buffer","cpu":N,"count":N}
// A printa() in a firing puts its aggregation objects on the lines after
// the firing's. make_json_output() (output_format.h) makes the writer; the
// pieces below are its building blocks, for tests.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dtx::trace {

// Appends `text` as a JSON string (RFC 8259): '"', '\\' and the control
// characters escaped (\n \t \r \b \f, others as \u00XX), valid UTF-8 as it
// is, each byte of an invalid UTF-8 sequence as \ufffd.
void append_json_string(std::string &out, std::string_view text);

// A symbolized address as the symbolizers name it, in its parts:
// "module`function+0x10", "module`function", "module`0x1234", "module" or
// "0x1234".
struct SymbolParts {
    std::string module;
    std::string function;
    std::optional<uint64_t> offset;
};
// `form_is_module`: the name is a module alone (mod(), umod()).
SymbolParts split_symbol_name(std::string_view name, bool form_is_module = false);

} // namespace dtx::trace
