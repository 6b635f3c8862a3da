// Hexadecimal spellings of numbers, for names and messages.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>

namespace dtx::trace {

// "1a2b": lower-case digits without a prefix (pid provider offsets, the names
// of /proc/PID/map_files entries).
inline std::string hex_digits(uint64_t value) {
    char digits[16];
    return std::string(digits, std::to_chars(digits, digits + sizeof(digits), value, 16).ptr);
}

// "0x1a2b", as messages and probe names show addresses and offsets.
inline std::string hex(uint64_t value) {
    return "0x" + hex_digits(value);
}

} // namespace dtx::trace
