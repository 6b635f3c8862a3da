// dtx's shared perf/link layer: every provider attaches its programs through an
// AttachmentSet, which owns each kernel attachment (bpf link, perf event) of a
// session and detaches them all on detach_all() or destruction.
//
// Everything here is fd based (PMU uprobes/kprobes, bpf links), so a dtx that is
// killed leaves nothing behind in tracefs: the kernel drops an attachment when its
// last fd closes.
#pragma once

#include "libtrace/error.h"

#include <linux/perf_event.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace dtx::trace {

// Owns one file descriptor and closes it on destruction.
class UniqueFd {
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    UniqueFd(UniqueFd &&other) noexcept : fd_(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;
    ~UniqueFd() { reset(); }

    int get() const noexcept { return fd_; }
    bool valid() const noexcept { return fd_ >= 0; }
    explicit operator bool() const noexcept { return valid(); }
    int release() noexcept { return std::exchange(fd_, -1); }
    // Closes the fd held so far (if any) and takes ownership of `fd`.
    void reset(int fd = -1) noexcept;

private:
    int fd_ = -1;
};

enum class AttachmentKind {
    Tracepoint,    // perf event on a tracefs tracepoint
    RawTracepoint, // bpf link from BPF_RAW_TRACEPOINT_OPEN
    Uprobe,        // perf event from the uprobe PMU (entry or return)
    UprobeMulti,   // one bpf link holding many uprobes (Linux >= 6.6)
    Kprobe,        // perf event from the kprobe PMU (entry or return)
    KprobeMulti,   // one bpf link holding many kprobes (fprobe, Linux >= 5.18)
    Trampoline,    // bpf link of a fentry/fexit program (a BPF trampoline)
    PerfEvent,     // any other perf event: cpu-clock for profile/tick probes...
};

std::string_view attachment_kind_name(AttachmentKind kind);

// One kernel attachment and the fds that keep it alive.
struct Attachment {
    AttachmentKind kind;
    // What was attached, for -v and error messages, e.g.
    // "tracepoint syscalls:sys_enter_openat" or "uretprobe /usr/lib/libc.so.6+0x9a0f0 pid 42".
    std::string description;
    // The bpf cookie (the first one for an uprobe_multi link).
    uint64_t cookie = 0;
    // The bpf link; not valid when the program was attached to the perf event
    // with PERF_EVENT_IOC_SET_BPF (kernels without perf links).
    UniqueFd link;
    // The perf event; not valid for pure links (raw tracepoints, uprobe_multi).
    UniqueFd perf_event;

    // Closes the link first, then the perf event: see detach_all() for why.
    void detach() noexcept;
};

struct DetachStats {
    std::size_t attachments = 0;
    // Threads that closed attachments, the calling thread included unless it
    // told a DetachProgress instead.
    unsigned threads = 0;
    std::chrono::nanoseconds elapsed{0};
};

// What detach_all() says while it closes attachments that wait for a grace
// period each (perf-event tracepoints, kprobes and uprobes): how many of
// `total` are `left`, from kDetachProgressDelay after it began (a detach
// that ends sooner says nothing) about every kDetachProgressInterval, and
// once more with 0 left at the end if it said anything before. Called from
// the thread that called detach_all().
using DetachProgress = std::function<void(std::size_t left, std::size_t total)>;
inline constexpr std::chrono::milliseconds kDetachProgressDelay{1000};
inline constexpr std::chrono::milliseconds kDetachProgressInterval{200};

// A DetachProgress that keeps one line on `stream` up to date, rewritten in
// place ("dtx: detaching 1,584 probes ... 800 left") and erased at the end,
// when `stream` is a terminal; null otherwise (a log file or a pipe gets no
// such line).
DetachProgress terminal_detach_progress(FILE *stream);

// What a long attach says, on a terminal only: one line, from
// kDetachProgressDelay after the attach began and about every
// kDetachProgressInterval ("dtx: attaching 4,000 probes ... 1,234
// attached"), rewritten in place and erased by finish() or destruction.
// Attaching is fast where the kernel allows (links, multi-links); this is
// for the thousands of perf events some kernels need (kprobes, tracepoints
// without BTF), one syscall and often a grace period each.
class AttachProgressLine {
public:
    // Says nothing unless `stream` is a terminal.
    AttachProgressLine(FILE *stream, std::size_t total);
    ~AttachProgressLine() { finish(); }
    AttachProgressLine(const AttachProgressLine &) = delete;
    AttachProgressLine &operator=(const AttachProgressLine &) = delete;

    // `done` of the total are attached.
    void update(std::size_t done);
    void finish();

private:
    FILE *stream_;
    std::size_t total_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_, next_;
};

// Closing a perf-event attachment waits for RCU grace periods (see
// detach_all()). Measured on 2 CPUs: on Linux 6.18, 2 threads halve the detach
// time of tracepoints and more change nothing; on 6.1, 8 threads cut it by 30%
// for tracepoints and 45% for uprobes, and 16 no further.
inline constexpr unsigned kDefaultDetachThreads = 8;

// Owns every attachment of a session. Not thread-safe; use from one thread.
class AttachmentSet {
public:
    using const_iterator = std::deque<Attachment>::const_iterator;

    // `progress`, if not null, hears how a slow detach_all() goes.
    explicit AttachmentSet(DetachProgress progress = nullptr) : progress_(std::move(progress)) {}
    // `attached`, if not null, hears the number of attachments after each new one.
    void on_attach(std::function<void(std::size_t attachments)> attached) {
        attached_ = std::move(attached);
    }
    AttachmentSet(const AttachmentSet &) = delete;
    AttachmentSet &operator=(const AttachmentSet &) = delete;
    ~AttachmentSet() { detach_all(); }

    // Attaches to tracefs tracepoint CATEGORY:EVENT for every process on every
    // CPU. The program must be a BPF_PROG_TYPE_TRACEPOINT program.
    Result<const Attachment *> attach_tracepoint(int prog_fd, std::string_view category,
                                                 std::string_view event, uint64_t cookie = 0);

    // Attaches a BPF_PROG_TYPE_RAW_TRACEPOINT program to raw tracepoint `name`
    // (e.g. "sys_enter"), or, with an empty name, a BTF-typed (tp_btf) program
    // to the tracepoint chosen when it was loaded. A nonzero cookie needs Linux 6.10.
    Result<const Attachment *> attach_raw_tracepoint(int prog_fd, std::string_view name,
                                                     uint64_t cookie = 0);

    // Attaches a BPF_PROG_TYPE_KPROBE program to the instruction at `file_offset`
    // in `path` (a file offset, not a virtual address), in process `pid` only, or
    // in every process mapping the file when pid is -1. `ref_ctr_offset` is the
    // file offset of a USDT semaphore the kernel increments while attached, or 0.
    Result<const Attachment *> attach_uprobe(int prog_fd, std::string_view path,
                                             uint64_t file_offset, bool retprobe,
                                             uint64_t ref_ctr_offset = 0, int pid = -1,
                                             uint64_t cookie = 0);

    // Attaches a program loaded with expected_attach_type kBpfTraceUprobeMulti
    // (perf_event.h) to every offset of `path` as one bpf link, so detaching costs
    // one grace period instead of one per offset. `ref_ctr_offsets` and `cookies`
    // are empty or parallel to `offsets`. Fails as a whole when any offset cannot
    // be probed; on kernels before 6.6 the error has kind KernelLacksFeature.
    Result<const Attachment *> attach_uprobe_multi(int prog_fd, std::string_view path,
                                                   std::span<const uint64_t> offsets,
                                                   std::span<const uint64_t> ref_ctr_offsets,
                                                   std::span<const uint64_t> cookies, int pid,
                                                   bool retprobe);

    // Attaches a BPF_PROG_TYPE_KPROBE program to kernel function `symbol` + `offset`.
    // Fails with kind KernelLacksFeature when the kernel has no kprobes.
    Result<const Attachment *> attach_kprobe(int prog_fd, std::string_view symbol, uint64_t offset,
                                             bool retprobe, uint64_t cookie = 0);

    // Attaches a BPF_PROG_TYPE_KPROBE program loaded with expected_attach_type
    // BPF_TRACE_KPROBE_MULTI to every kernel function in `symbols` as one bpf
    // link; `cookies` is empty or parallel to `symbols`. Fails with
    // kind KernelLacksFeature when the kernel has no kprobe_multi links
    // (CONFIG_FPROBE).
    Result<const Attachment *> attach_kprobe_multi(int prog_fd,
                                                   std::span<const std::string> symbols,
                                                   std::span<const uint64_t> cookies,
                                                   bool retprobe);

    // Attaches a fentry (or, with `fexit`, fexit) program: BPF_PROG_TYPE_TRACING,
    // loaded for its target function, through that function's BPF trampoline;
    // `description` names the target ("fentry vfs_read"). A nonzero cookie
    // needs Linux 5.19.
    Result<const Attachment *> attach_trampoline(int prog_fd, bool fexit, std::string description,
                                                 uint64_t cookie = 0);

    // Opens `attr` for (pid, cpu) as perf_event_open(2) does and attaches a
    // BPF_PROG_TYPE_PERF_EVENT program to its overflow; sampling events such as
    // cpu-clock only run the program on the CPU (or task) they were opened for.
    Result<const Attachment *> attach_perf_event(int prog_fd, const perf_event_attr &attr, int cpu,
                                                 int pid, uint64_t cookie = 0);

    // Closes every attachment, using up to `max_threads` threads (1 = serially
    // in the calling thread, or in one helper while the calling thread tells
    // the DetachProgress), and returns (and remembers) how long it took.
    DetachStats detach_all(unsigned max_threads = kDefaultDetachThreads);
    const std::optional<DetachStats> &last_detach() const { return last_detach_; }

    std::size_t size() const { return attachments_.size(); }
    bool empty() const { return attachments_.empty(); }
    const_iterator begin() const { return attachments_.begin(); }
    const_iterator end() const { return attachments_.end(); }

private:
    Result<std::string> tracefs_dir();
    // Opens a perf event, attaches the program to it and records the attachment.
    Result<const Attachment *> attach_to_new_perf_event(AttachmentKind kind,
                                                        std::string description,
                                                        const perf_event_attr &attr, int pid,
                                                        int cpu, int prog_fd, uint64_t cookie);
    const Attachment *add(Attachment attachment);

    // A deque, so the Attachment pointers handed out stay valid until detach_all().
    std::deque<Attachment> attachments_;
    std::optional<std::string> tracefs_dir_;
    std::optional<bool> kernel_has_uprobe_multi_;
    std::optional<DetachStats> last_detach_;
    DetachProgress progress_;
    std::function<void(std::size_t)> attached_;
};

} // namespace dtx::trace
