// Diagnostics are collected, not thrown: every pass reports into one
// DiagnosticEngine and carries on where it can, so a run shows every
// independent error. Each kind has a stable code ("D_SYNTAX") that tests match.
#pragma once

#include "parser/source.h"

#include <iosfwd>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dtx {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code; // stable name, e.g. "D_SYNTAX"
    std::string message;
    SourceRange range;
    std::vector<std::string> hints;
    // The same error (code and message) reported again elsewhere: counted
    // here, not shown again.
    size_t repeats = 0;
    SourceRange last_repeat;
};

// However many errors an input makes (a binary file as a script), what is
// kept and shown is bounded: an error (code and message) is shown at its
// first kShownRepeats places and counted on the last of them after that,
// and after kMaxKept diagnostics the rest are only counted.
class DiagnosticEngine {
public:
    static constexpr size_t kMaxKept = 20;
    static constexpr size_t kShownRepeats = 3;
    static constexpr size_t kMaxErrors = 1000;

    // The diagnostic to add hints to: a repeated or uncounted one is not kept.
    Diagnostic &error(std::string code, const SourceRange &range, std::string message);
    Diagnostic &warning(std::string code, const SourceRange &range, std::string message);

    const std::vector<Diagnostic> &diagnostics() const { return diagnostics_; }
    size_t error_count() const { return errors_; }
    bool has_errors() const { return errors_ != 0; }
    // Whether more input would only add errors nobody reads: some were not
    // kept, or there are thousands of repeats. The lexer then ends the input.
    bool too_many() const { return not_kept_ != 0 || errors_ >= kMaxErrors; }

    // Renders every diagnostic as
    //   file:line:col: error: message [CODE]
    //     12 | source line
    //        |      ^~~~
    //   hint: ...
    //   note: 41 more times, the last at file:80:3
    // then, when some were only counted, "error: too many errors; stopping".
    void render(std::ostream &out) const;

private:
    Diagnostic &add(Severity severity, std::string code, const SourceRange &range,
                    std::string message);

    std::vector<Diagnostic> diagnostics_;
    struct Repeated {
        size_t shown = 0; // places shown in full
        size_t last = 0;  // the index of the last of them
    };
    std::map<std::pair<std::string, std::string>, Repeated> kept_; // by (code, message)
    Diagnostic discarded_; // what error() returns for one that is not kept
    size_t errors_ = 0;
    size_t not_kept_ = 0; // beyond kMaxKept
};

void render_diagnostic(std::ostream &out, const Diagnostic &d);

// dtrace's one-line form of a diagnostic, as -x errtags shows it after
// "failed to compile script x.d: ": "[D_SYNTAX] line 3: message".
std::string errtags_form(const Diagnostic &d);

} // namespace dtx
