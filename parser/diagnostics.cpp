#include "parser/diagnostics.h"

#include <algorithm>
#include <ostream>
#include <string>

namespace dtx {

Diagnostic &DiagnosticEngine::error(std::string code, const SourceRange &range,
                                    std::string message) {
    ++errors_;
    return add(Severity::Error, std::move(code), range, std::move(message));
}

Diagnostic &DiagnosticEngine::warning(std::string code, const SourceRange &range,
                                      std::string message) {
    return add(Severity::Warning, std::move(code), range, std::move(message));
}

Diagnostic &DiagnosticEngine::add(Severity severity, std::string code, const SourceRange &range,
                                  std::string message) {
    auto [known, added] = kept_.try_emplace({code, message});
    Repeated &repeated = known->second;
    if (!added && repeated.shown >= kShownRepeats) {
        Diagnostic &last = diagnostics_[repeated.last];
        last.repeats++;
        last.last_repeat = range;
        discarded_ = Diagnostic{};
        return discarded_;
    }
    if (diagnostics_.size() >= kMaxKept) {
        not_kept_++;
        discarded_ = Diagnostic{};
        return discarded_;
    }
    repeated.shown++;
    repeated.last = diagnostics_.size();
    return diagnostics_.emplace_back(
        Diagnostic{severity, std::move(code), std::move(message), range, {}, 0, {}});
}

void DiagnosticEngine::render(std::ostream &out) const {
    for (const Diagnostic &d : diagnostics_)
        render_diagnostic(out, d);
    if (too_many()) {
        out << "error: too many errors; stopping";
        if (not_kept_)
            out << " (" << not_kept_ << " more not shown)";
        out << '\n';
    }
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

namespace {

// A source line longer than this is shown as the part around the column.
constexpr uint32_t kEchoWidth = 160;
constexpr uint32_t kEchoBefore = 60; // of those, columns before the caret

// The echoed part of `line` for an error at `column`: its first column,
// and its text with control characters shown as '?' (one column each, so
// the caret stays in place).
std::pair<uint32_t, std::string> echo_window(std::string_view line, uint32_t column) {
    uint32_t first = 1;
    if (line.size() > kEchoWidth && column > kEchoBefore)
        first = std::min<uint32_t>(column - kEchoBefore, uint32_t(line.size()) - kEchoWidth + 1);
    std::string text(line.substr(first - 1, kEchoWidth));
    for (char &c : text)
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
            c = '?';
    return {first, text};
}

std::string location(const SourceRange &r) {
    return r.file_name() + ':' + std::to_string(r.begin.line) + ':' +
           std::to_string(r.begin.column);
}

} // namespace

void render_diagnostic(std::ostream &out, const Diagnostic &d) {
    const SourceRange &r = d.range;
    if (r.valid())
        out << location(r) << ": ";
    out << severity_name(d.severity) << ": " << d.message;
    if (!d.code.empty())
        out << " [" << d.code << ']';
    out << '\n';
    if (r.valid()) {
        std::string_view line = r.source->line(r.source_line);
        auto [first, text] = echo_window(line, r.begin.column);
        const bool cut_before = first > 1, cut_after = first - 1 + text.size() < line.size();
        std::string number = std::to_string(r.begin.line);
        std::string gutter(number.size(), ' ');
        out << ' ' << number << " | " << (cut_before ? "..." : "") << text
            << (cut_after ? "..." : "") << '\n';
        out << ' ' << gutter << " | " << (cut_before ? "   " : "");
        // Reproduce tabs so the caret lines up under the text as the terminal shows it.
        const uint32_t caret = r.begin.column - first + 1;
        uint32_t col = 1;
        for (; col < caret && col <= text.size(); ++col)
            out << (text[col - 1] == '\t' ? '\t' : ' ');
        for (; col < caret; ++col)
            out << ' ';
        out << '^';
        if (r.end.line == r.begin.line && r.end.column > r.begin.column + 1) {
            uint32_t last = std::min<uint32_t>(r.end.column - first + 1, uint32_t(text.size()) + 1);
            for (uint32_t c = caret + 1; c < last; ++c)
                out << '~';
        }
        out << '\n';
    }
    for (const std::string &hint : d.hints)
        out << "hint: " << hint << '\n';
    if (d.repeats)
        out << "note: " << d.repeats << " more time" << (d.repeats == 1 ? "" : "s")
            << (d.last_repeat.valid() ? ", the last at " + location(d.last_repeat) : "") << '\n';
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
