// The library's one error type, and Result<T>: a value or an Error. Nothing
// in the library throws or prints an error; it returns one, and the caller
// (in the end cmd/) says it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace dtx {

enum class ErrorKind : uint8_t {
    Failed, // a compile or run-time failure: dtrace's exit status 1
    Usage,  // the command line asks for what cannot be: exit status 2
    // The kernel lacks the mechanism altogether (no kprobes, no uprobe_multi
    // links ...): a caller may fall back to another.
    KernelLacksFeature,
    // The program's diagnostics, rendered whole in `message` (file:line:col,
    // the source line and a caret): printed as they are, exit status 1.
    Diagnostics,
};

struct Error {
    Error() = default;
    explicit Error(std::string text, ErrorKind error_kind = ErrorKind::Failed, int error_number = 0)
        : message(std::move(text)), kind(error_kind), errnum(error_number) {}
    Error(std::string text, int error_number) : message(std::move(text)), errnum(error_number) {}

    // One line naming what failed and why, without the "dtx: " the command
    // adds, e.g. "uprobe /bin/bash+0x1234: perf_event_open: No such file or
    // directory".
    std::string message;
    ErrorKind kind = ErrorKind::Failed;
    int errnum = 0; // errno of the failing call; 0 when there was none
    // What failed, where a caller acts on it: the BPF program the kernel refused.
    std::string subject;
    // Lines that explain the message: the end of a verifier log, libbpf's words.
    std::vector<std::string> details;

    // The message, then the details indented below it.
    std::string to_string() const;
    // The same error with "CONTEXT: " before its message, to name what it
    // concerns: error.prefixed("probe 'syscall::read:entry'").
    Error prefixed(std::string_view context) const;
};

// "TARGET: OPERATION: strerror(errnum)[ (HINT)]", the shape of every error of
// a system call.
Error errno_error(std::string_view target, std::string_view operation, int errnum,
                  std::string_view hint = {});

template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const noexcept { return state_.index() == 0; }
    explicit operator bool() const noexcept { return ok(); }
    T &value() & { return std::get<0>(state_); }
    const T &value() const & { return std::get<0>(state_); }
    T &&value() && { return std::get<0>(std::move(state_)); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T &&operator*() && { return std::move(*this).value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    const Error &error() const & { return std::get<1>(state_); }
    Error &&error() && { return std::get<1>(std::move(state_)); }

private:
    std::variant<T, Error> state_;
};

// Success, or an Error.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)) {}

    bool ok() const noexcept { return !error_; }
    explicit operator bool() const noexcept { return ok(); }
    const Error &error() const & { return *error_; }
    Error &&error() && { return std::move(*error_); }

private:
    std::optional<Error> error_;
};

using Status = Result<void>;

// An Error of kind Failed saying `message`.
inline Error failure(std::string message) {
    return Error(std::move(message));
}

} // namespace dtx
