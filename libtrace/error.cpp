#include "libtrace/error.h"

#include <cstring>

namespace dtx {

std::string Error::to_string() const {
    std::string text = message;
    for (const std::string &line : details)
        text += "\n    " + line;
    return text;
}

Error Error::prefixed(std::string_view context) const {
    Error error = *this;
    error.message = std::string(context) + ": " + message;
    return error;
}

Error errno_error(std::string_view target, std::string_view operation, int errnum,
                  std::string_view hint) {
    std::string message(target);
    message.append(": ").append(operation).append(": ").append(std::strerror(errnum));
    if (!hint.empty())
        message.append(" (").append(hint).append(")");
    return Error(std::move(message), ErrorKind::Failed, errnum);
}

} // namespace dtx
