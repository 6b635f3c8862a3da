// Diagnostics are collected, not thrown: every pass reports into one
// DiagnosticEngine and carries on where it can, so a run shows every
// independent error. Each kind has a stable code ("D_SYNTAX") that tests match.
#pragma once

#include "parser/source.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace dtx {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code; // stable name, e.g. "D_SYNTAX"
    std::string message;
    SourceRange range;
    std::vector<std::string> hints;
};

class DiagnosticEngine {
public:
    Diagnostic &error(std::string code, const SourceRange &range, std::string message);
    Diagnostic &warning(std::string code, const SourceRange &range, std::string message);

    const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
    size_t error_count() const { return errors_; }
    bool has_errors() const { return errors_ != 0; }

    // Renders every diagnostic as
    //   file:line:col: error: message [CODE]
    //     12 | source line
    //        |      ^~~~
    //   hint: ...
    void render(std::ostream &out) const;

private:
    std::vector<Diagnostic> diagnostics_;
    size_t errors_ = 0;
};

void render_diagnostic(std::ostream &out, const Diagnostic &d);

// dtrace's one-line form of a diagnostic, as -x errtags shows it after
// "failed to compile script x.d: ": "[D_SYNTAX] line 3: message".
std::string errtags_form(const Diagnostic &d);

} // namespace dtx
