# Writes the D library's files (FILES, a ;-list) to OUTPUT as the C++ table
# dtx::codegen::kDLibraryFiles of {name, text}, for codegen/d_library.cpp.
# Run as: cmake "-DFILES=a.d;b.d" -DOUTPUT=<file.cpp> -P embed_dlib.cmake
set(entries "")
set(arrays "")
set(index 0)
foreach(file ${FILES})
  get_filename_component(name "${file}" NAME)
  file(READ "${file}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x[0-9a-f][0-9a-f],){16})" "\\1\n    " bytes "${bytes}")
  string(APPEND arrays "const char kFile${index}[] = {\n    ${bytes}0};\n")
  string(APPEND entries "    {\"${name}\", kFile${index}},\n")
  math(EXPR index "${index} + 1")
endforeach()
file(WRITE "${OUTPUT}"
"// Generated from codegen/dlib/*.d by codegen/dlib/embed_dlib.cmake; do not edit.
#include \"codegen/d_library.h\"

namespace dtx::codegen {

namespace {
${arrays}
} // namespace

extern const DLibraryFile kDLibraryFiles[];
const DLibraryFile kDLibraryFiles[] = {
${entries}};
extern const size_t kDLibraryFileCount;
const size_t kDLibraryFileCount = ${index};

} // namespace dtx::codegen
")
