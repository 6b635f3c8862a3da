#include "libtrace/perf_event.h"

#include "libtrace/whole_file.h"

#include <linux/bpf.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstddef>

namespace dtx::trace {

#ifdef BPF_F_UPROBE_MULTI_RETURN
// Headers from Linux 6.6 on define uprobe_multi themselves; ours must agree.
static_assert(kBpfTraceUprobeMulti == BPF_TRACE_UPROBE_MULTI);
static_assert(kBpfUprobeMultiReturnFlag == BPF_F_UPROBE_MULTI_RETURN);
#endif

namespace {

// BPF_LINK_CREATE's attr for uprobe_multi links, laid out as link_create in
// Linux 6.6's union bpf_attr; the 6.1 headers lack the uprobe_multi member.
struct UprobeMultiLinkCreateAttr {
    uint32_t prog_fd;
    uint32_t target_fd;
    uint32_t attach_type;
    uint32_t flags;
    uint64_t path;
    uint64_t offsets;         // unsigned long[cnt]
    uint64_t ref_ctr_offsets; // unsigned long[cnt], or 0
    uint64_t cookies;         // u64[cnt], or 0
    uint32_t cnt;
    uint32_t uprobe_multi_flags;
    uint32_t pid; // 0: every process
};
static_assert(offsetof(UprobeMultiLinkCreateAttr, path) == 16);
static_assert(offsetof(UprobeMultiLinkCreateAttr, cnt) == 48);
static_assert(offsetof(UprobeMultiLinkCreateAttr, pid) == 56);
// The kernel reads offsets as unsigned long: the spans must match it.
static_assert(sizeof(unsigned long) == sizeof(uint64_t));

// BPF_RAW_TRACEPOINT_OPEN's attr with the cookie added in Linux 6.10. Older
// kernels accept it as long as the cookie is zero.
struct RawTracepointOpenAttr {
    uint64_t name;
    uint32_t prog_fd;
    uint32_t reserved;
    uint64_t cookie;
};

long sys_bpf(int cmd, void *attr, size_t size) {
    return syscall(__NR_bpf, cmd, attr, size);
}

uint64_t user_pointer(const void *pointer) {
    return reinterpret_cast<uintptr_t>(pointer);
}

std::string_view perf_event_open_hint(int errnum) {
    switch (errnum) {
    case EMFILE:
        return "too many open files: raise the limit (ulimit -n)";
    case EACCES:
    case EPERM:
        return "needs root (CAP_PERFMON)";
    default:
        return {};
    }
}

} // namespace

std::optional<unsigned> parse_pmu_config_field(std::string_view format) {
    constexpr std::string_view prefix = "config:";
    if (!format.starts_with(prefix))
        return std::nullopt;
    format.remove_prefix(prefix.size());
    unsigned bit = 0;
    auto [end, ec] = std::from_chars(format.data(), format.data() + format.size(), bit);
    if (ec != std::errc() || bit > 63)
        return std::nullopt;
    std::string_view rest(end, format.data() + format.size() - end);
    if (!rest.empty() && rest.front() != '-' &&
        !std::isspace(static_cast<unsigned char>(rest.front())))
        return std::nullopt;
    return bit;
}

Result<ProbePmu> read_probe_pmu(std::string_view name, std::string_view target) {
    std::string dir = "/sys/bus/event_source/devices/";
    dir.append(name);
    if (access(dir.c_str(), F_OK) != 0) {
        std::string config = "CONFIG_";
        for (char c : name)
            config += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        std::string message(target);
        message.append(": this kernel has no ").append(name).append(" support (no ").append(dir);
        message.append(": built without ").append(config).append("S, or older than Linux 4.17)");
        return Error(std::move(message), ErrorKind::KernelLacksFeature, ENOENT);
    }

    ProbePmu pmu;
    std::optional<std::string> type = read_first_line(dir + "/type");
    if (!type ||
        std::from_chars(type->data(), type->data() + type->size(), pmu.type).ec != std::errc())
        return Error{std::string(target) + ": cannot read the PMU type from " + dir + "/type",
                     EINVAL};
    std::optional<std::string> retprobe = read_first_line(dir + "/format/retprobe");
    std::optional<unsigned> retprobe_bit =
        retprobe ? parse_pmu_config_field(*retprobe) : std::nullopt;
    if (!retprobe_bit)
        return Error{std::string(target) + ": cannot read " + dir + "/format/retprobe", EINVAL};
    pmu.retprobe_bit = *retprobe_bit;
    if (std::optional<std::string> field = read_first_line(dir + "/format/ref_ctr_offset"))
        pmu.ref_ctr_offset_shift = parse_pmu_config_field(*field);
    return pmu;
}

Result<UniqueFd> open_perf_event(const perf_event_attr &attr, int pid, int cpu,
                                 std::string_view target) {
    // The kernel may write the size it expects back into the attr.
    perf_event_attr writable = attr;
    int fd = static_cast<int>(
        syscall(__NR_perf_event_open, &writable, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
    if (fd < 0) {
        int err = errno;
        return errno_error(target, "perf_event_open", err, perf_event_open_hint(err));
    }
    return UniqueFd(fd);
}

Result<UniqueFd> link_perf_event(int prog_fd, int perf_fd, uint64_t cookie,
                                 std::string_view target) {
    bpf_attr attr{};
    attr.link_create.prog_fd = static_cast<uint32_t>(prog_fd);
    attr.link_create.target_fd = static_cast<uint32_t>(perf_fd);
    attr.link_create.attach_type = BPF_PERF_EVENT;
    attr.link_create.perf_event.bpf_cookie = cookie;
    int fd = static_cast<int>(sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr)));
    if (fd >= 0)
        return UniqueFd(fd);
    int err = errno;
    // Before Linux 5.15 BPF_LINK_CREATE rejects BPF_PERF_EVENT with EINVAL; the
    // ioctl attaches the same way, only without a cookie.
    if (err == EINVAL && cookie == 0 && ioctl(perf_fd, PERF_EVENT_IOC_SET_BPF, prog_fd) == 0)
        return UniqueFd();
    std::string_view hint;
    if (err == EINVAL)
        hint = cookie == 0 ? "wrong program type for this event"
                           : "wrong program type for this event, or a kernel before 5.15 "
                             "without bpf cookies";
    return errno_error(target, "attaching the program", err, hint);
}

Result<UniqueFd> open_raw_tracepoint(int prog_fd, std::string_view name, uint64_t cookie,
                                     std::string_view target) {
    std::string name_copy(name);
    RawTracepointOpenAttr attr{};
    attr.name = name.empty() ? 0 : user_pointer(name_copy.c_str());
    attr.prog_fd = static_cast<uint32_t>(prog_fd);
    attr.cookie = cookie;
    int fd = static_cast<int>(sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr)));
    if (fd >= 0)
        return UniqueFd(fd);
    int err = errno;
    if (err == EINVAL && cookie != 0) {
        // Tell a kernel without raw tracepoint cookies from a bad program.
        attr.cookie = 0;
        UniqueFd without_cookie(
            static_cast<int>(sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr))));
        if (without_cookie) {
            Error error = errno_error(target, "BPF_RAW_TRACEPOINT_OPEN", err,
                                      "raw tracepoint cookies need Linux 6.10");
            error.kind = ErrorKind::KernelLacksFeature;
            return error;
        }
    }
    std::string_view hint;
    if (err == ENOENT)
        hint = "no such raw tracepoint";
    else if (err == EINVAL)
        hint = "wrong program type for a raw tracepoint";
    return errno_error(target, "BPF_RAW_TRACEPOINT_OPEN", err, hint);
}

Result<UniqueFd> create_uprobe_multi_link(int prog_fd, const UprobeMultiSpec &spec,
                                          std::string_view target) {
    UprobeMultiLinkCreateAttr attr{};
    attr.prog_fd = static_cast<uint32_t>(prog_fd);
    attr.attach_type = kBpfTraceUprobeMulti;
    attr.path = user_pointer(spec.path.c_str());
    attr.offsets = user_pointer(spec.offsets.data());
    attr.ref_ctr_offsets =
        spec.ref_ctr_offsets.empty() ? 0 : user_pointer(spec.ref_ctr_offsets.data());
    attr.cookies = spec.cookies.empty() ? 0 : user_pointer(spec.cookies.data());
    attr.cnt = static_cast<uint32_t>(spec.offsets.size());
    attr.uprobe_multi_flags = spec.retprobe ? kBpfUprobeMultiReturnFlag : 0;
    attr.pid = spec.pid < 0 ? 0 : static_cast<uint32_t>(spec.pid);
    int fd = static_cast<int>(sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr)));
    if (fd >= 0)
        return UniqueFd(fd);
    int err = errno;
    std::string_view hint;
    switch (err) {
    case EINVAL:
        hint = "an offset is not probeable, or the program was not loaded with expected attach "
               "type BPF_TRACE_UPROBE_MULTI";
        break;
    case EBADF:
        hint = "not a regular file";
        break;
    default:
        break;
    }
    return errno_error(target, "BPF_LINK_CREATE (uprobe_multi)", err, hint);
}

bool kernel_supports_uprobe_multi() {
    const bpf_insn return_zero[] = {
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
        {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
    };
    bpf_attr load{};
    load.prog_type = BPF_PROG_TYPE_KPROBE;
    load.expected_attach_type = kBpfTraceUprobeMulti;
    load.insns = user_pointer(return_zero);
    load.insn_cnt = std::size(return_zero);
    load.license = user_pointer("GPL");
    UniqueFd prog(static_cast<int>(sys_bpf(BPF_PROG_LOAD, &load, sizeof(load))));
    if (!prog)
        return false;

    const uint64_t offset = 0;
    UprobeMultiLinkCreateAttr attr{};
    attr.prog_fd = static_cast<uint32_t>(prog.get());
    attr.attach_type = kBpfTraceUprobeMulti;
    attr.path = user_pointer("/");
    attr.offsets = user_pointer(&offset);
    attr.cnt = 1;
    UniqueFd link(static_cast<int>(sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr))));
    return !link && errno == EBADF;
}

bool kernel_supports_sleepable_uprobes(bool multi) {
    // bpf_copy_from_user(r10 - 8, 1, 0); bpf_get_current_task_btf(); return 0
    const bpf_insn program[] = {
        {BPF_ALU64 | BPF_MOV | BPF_X, BPF_REG_1, BPF_REG_10, 0, 0},
        {BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_1, 0, 0, -8},
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 1},
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_3, 0, 0, 0},
        {BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_copy_from_user},
        {BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_task_btf},
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
        {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
    };
    bpf_attr load{};
    load.prog_type = BPF_PROG_TYPE_KPROBE;
    load.expected_attach_type = multi ? kBpfTraceUprobeMulti : 0;
    load.prog_flags = BPF_F_SLEEPABLE;
    load.insns = user_pointer(program);
    load.insn_cnt = std::size(program);
    load.license = user_pointer("GPL");
    UniqueFd prog(static_cast<int>(sys_bpf(BPF_PROG_LOAD, &load, sizeof(load))));
    return bool(prog);
}

} // namespace dtx::trace
