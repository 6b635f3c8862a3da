#include "codegen/d_library.h"

#include "parser/parser.h"

#include <memory>
#include <string>
#include <vector>

namespace dtx::codegen {

extern const DLibraryFile kDLibraryFiles[];
extern const size_t kDLibraryFileCount;

std::span<const DLibraryFile> d_library_files() {
    return {kDLibraryFiles, kDLibraryFileCount};
}

bool parse_d_library(parser::TypeNames &types, ast::Program &program, DiagnosticEngine &diags) {
    // The nodes point into their sources, which live as long as dtx.
    static const std::vector<std::unique_ptr<SourceFile>> sources = [] {
        std::vector<std::unique_ptr<SourceFile>> files;
        for (const DLibraryFile &file : d_library_files()) {
            files.push_back(
                std::make_unique<SourceFile>(std::string("dlib/") + file.name, file.text));
            files.back()->set_library(true);
        }
        return files;
    }();
    bool ok = true;
    for (const auto &source : sources)
        ok &= parser::parse_program(*source, types, program, diags);
    return ok;
}

} // namespace dtx::codegen
