# Writes the bytes of INPUT (the run-time library's bitcode) to OUTPUT as the
# C++ array dtx::codegen::kRuntimeBitcode, for codegen/runtime_library.cpp.
# Run as: cmake -DINPUT=<file> -DOUTPUT=<file.cpp> -P embed_bitcode.cmake
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_length)
math(EXPR size "${hex_length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}"
"// Generated from ${input_name} by codegen/runtime/embed_bitcode.cmake; do not edit.
#include <cstddef>

namespace dtx::codegen {

// Aligned as LLVM's bitstream reader likes its buffers.
extern const unsigned char kRuntimeBitcode[];
alignas(8) const unsigned char kRuntimeBitcode[] = {
    ${bytes}
};
extern const size_t kRuntimeBitcodeSize;
const size_t kRuntimeBitcodeSize = ${size};

} // namespace dtx::codegen
")
