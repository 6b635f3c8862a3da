#include "parser/diagnostics.h"

#include <ostream>
#include <string>

namespace dtx {

Diagnostic &DiagnosticEngine::error(std::string code, const SourceRange &range,
                                    std::string message) {
    ++errors_;
    return diagnostics_.emplace_back(
        Diagnostic{Severity::Error, std::move(code), std::move(message), range, {}});
}

Diagnostic &DiagnosticEngine::warning(std::string code, const SourceRange &range,
                                      std::string message) {
    return diagnostics_.emplace_back(
        Diagnostic{Severity::Warning, std::move(code), std::move(message), range, {}});
}

void DiagnosticEngine::render(std::ostream &out) const {
    for (const Diagnostic &d : diagnostics_)
        render_diagnostic(out, d);
}

static const char *severity_name(Severity s) {
    switch (s) {
    case Severity::Error:
        return "error";
    case Severity::Warning:
        return "warning";
    case Severity::Note:
        return "note";
    }
    return "error";
}

void render_diagnostic(std::ostream &out, const Diagnostic &d) {
    const SourceRange &r = d.range;
    if (r.valid())
        out << r.file_name() << ':' << r.begin.line << ':' << r.begin.column << ": ";
    out << severity_name(d.severity) << ": " << d.message;
    if (!d.code.empty())
        out << " [" << d.code << ']';
    out << '\n';
    if (r.valid()) {
        std::string_view text = r.source->line(r.source_line);
        std::string number = std::to_string(r.begin.line);
        std::string gutter(number.size(), ' ');
        out << ' ' << number << " | " << text << '\n';
        out << ' ' << gutter << " | ";
        // Reproduce tabs so the caret lines up under the text as the terminal shows it.
        uint32_t col = 1;
        for (; col < r.begin.column && col <= text.size(); ++col)
            out << (text[col - 1] == '\t' ? '\t' : ' ');
        for (; col < r.begin.column; ++col)
            out << ' ';
        out << '^';
        if (r.end.line == r.begin.line && r.end.column > r.begin.column + 1) {
            uint32_t last = std::min<uint32_t>(r.end.column, uint32_t(text.size()) + 1);
            for (uint32_t c = r.begin.column + 1; c < last; ++c)
                out << '~';
        }
        out << '\n';
    }
    for (const std::string &hint : d.hints)
        out << "hint: " << hint << '\n';
}

std::string errtags_form(const Diagnostic &d) {
    std::string text;
    if (!d.code.empty())
        text += "[" + d.code + "] ";
    if (d.range.valid())
        text += "line " + std::to_string(d.range.begin.line) + ": ";
    return text + d.message;
}

} // namespace dtx
