#include "libtrace/privileges.h"

#include "libtrace/tracefs.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

namespace dtx::trace {

namespace {

// Linux 5.8's capabilities; older headers lack their numbers.
constexpr int kCapPerfmon = 38;
constexpr int kCapBpf = 39;

constexpr const char *kNeeded =
    "tracing needs root, or the capabilities CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN for "
    "destructive actions) with read access to tracefs";

bool has_capability(const __user_cap_data_struct (&effective)[2], int capability) {
    return (effective[capability / 32].effective >> (capability % 32)) & 1;
}

} // namespace

Status check_tracing_privileges() {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (syscall(SYS_capget, &header, data) != 0)
        return Error(std::string(kNeeded) + ", and capget() failed", errno);
    const bool bpf = has_capability(data, CAP_SYS_ADMIN) ||
                     (has_capability(data, kCapBpf) && has_capability(data, kCapPerfmon));
    if (!bpf) {
        const bool root = geteuid() == 0;
        return Error(std::string(kNeeded) + (root ? " (this root has lost them)" : ""));
    }
    // Unmounted or unmountable, tracefs is the providers' to report.
    Result<std::string> tracefs = find_or_mount_tracefs();
    if (tracefs && access((*tracefs + "/events").c_str(), R_OK | X_OK) != 0 && errno == EACCES)
        return Error(std::string(kNeeded) + " (" + *tracefs + "/events is not readable)", EACCES);
    return {};
}

} // namespace dtx::trace
