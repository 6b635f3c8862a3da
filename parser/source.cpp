#include "parser/source.h"

namespace dtx {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
    line_starts_.push_back(0);
    for (size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n')
            line_starts_.push_back(i + 1);
    }
}

std::string_view SourceFile::line(uint32_t line) const {
    if (line == 0 || line > line_starts_.size())
        return {};
    size_t begin = line_starts_[line - 1];
    size_t end = line < line_starts_.size() ? line_starts_[line] - 1 : text_.size();
    if (end > begin && text_[end - 1] == '\r')
        --end;
    return std::string_view(text_).substr(begin, end - begin);
}

std::string SourceRange::file_name() const {
    if (display_name)
        return *display_name;
    return source ? source->name() : std::string("<unknown>");
}

} // namespace dtx
