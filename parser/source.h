// Source text and locations. Every AST node, and every diagnostic from any pass,
// points back into a SourceFile through a SourceRange.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dtx {

// One unit of D text: a script file, one -n argument, or a string given by a test.
class SourceFile {
public:
    SourceFile(std::string name, std::string text);

    const std::string &name() const { return name_; }
    const std::string &text() const { return text_; }
    // The text of 1-based line `line`, without its newline; empty past the end.
    std::string_view line(uint32_t line) const;
    // Part of dtx's D library (codegen/d_library.h), not the user's program.
    bool library() const { return library_; }
    void set_library(bool library) { library_ = library; }

private:
    std::string name_;
    std::string text_;
    bool library_ = false;
    std::vector<size_t> line_starts_;
};

// A position as the user sees it. `file` names the file the text came from; it
// differs from the SourceFile's name after a cpp line marker (`# 12 "foo.h"`).
struct SourcePosition {
    uint32_t line = 1;
    uint32_t column = 1;
};

struct SourceRange {
    const SourceFile *source = nullptr;
    // The file name the user should see (after cpp line markers) and the line in
    // `source` that holds `begin`, used to show the text under the caret.
    std::shared_ptr<const std::string> display_name;
    uint32_t source_line = 0;
    SourcePosition begin;
    SourcePosition end; // exclusive

    std::string file_name() const;
    bool valid() const { return source != nullptr; }
};

} // namespace dtx
