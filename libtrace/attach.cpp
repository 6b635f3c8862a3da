#include "libtrace/attach.h"

#include "libtrace/hex.h"
#include "libtrace/perf_event.h"
#include "libtrace/tracefs.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace dtx::trace {

void UniqueFd::reset(int fd) noexcept {
    // close() releases the descriptor even when it reports an error: never retry.
    if (fd_ >= 0)
        close(fd_);
    fd_ = fd;
}

std::string_view attachment_kind_name(AttachmentKind kind) {
    switch (kind) {
    case AttachmentKind::Tracepoint:
        return "tracepoint";
    case AttachmentKind::RawTracepoint:
        return "raw_tracepoint";
    case AttachmentKind::Uprobe:
        return "uprobe";
    case AttachmentKind::UprobeMulti:
        return "uprobe_multi";
    case AttachmentKind::Kprobe:
        return "kprobe";
    case AttachmentKind::KprobeMulti:
        return "kprobe_multi";
    case AttachmentKind::Trampoline:
        return "trampoline";
    case AttachmentKind::PerfEvent:
        return "perf_event";
    }
    return "unknown";
}

void Attachment::detach() noexcept {
    link.reset();
    perf_event.reset();
}

namespace {

// 1584 as "1,584".
std::string digits_grouped(std::size_t n) {
    std::string digits = std::to_string(n);
    for (size_t at = digits.size(); at > 3; at -= 3)
        digits.insert(at - 3, ",");
    return digits;
}

std::string pid_suffix(int pid) {
    return pid >= 0 ? " pid " + std::to_string(pid) : "";
}

uint64_t user_pointer(const char *text) {
    return reinterpret_cast<uintptr_t>(text);
}

// "cpu-clock period 10000000" and the like, for -v listings.
std::string describe_perf_event(const perf_event_attr &attr) {
    std::string event;
    if (attr.type == PERF_TYPE_SOFTWARE && attr.config == PERF_COUNT_SW_CPU_CLOCK)
        event = "cpu-clock";
    else if (attr.type == PERF_TYPE_SOFTWARE && attr.config == PERF_COUNT_SW_TASK_CLOCK)
        event = "task-clock";
    else if (attr.type == PERF_TYPE_HARDWARE && attr.config == PERF_COUNT_HW_CPU_CYCLES)
        event = "cpu-cycles";
    else
        event = "type " + std::to_string(attr.type) + " config " + hex(attr.config);
    if (attr.freq)
        event += " freq " + std::to_string(attr.sample_freq);
    else if (attr.sample_period)
        event += " period " + std::to_string(attr.sample_period);
    return event;
}

// Closing a perf-event attachment waits for RCU grace periods: one when its
// link detaches the program (outside any lock, so closes from several threads
// overlap) and one when the perf event unregisters from its tracepoint or probe
// (under the kernel's event_mutex, so those run one at a time). An uprobe_multi
// link waits for one; a raw tracepoint link frees itself asynchronously. A
// trampoline link waits for a tasks-RCU grace period (~140 ms on Linux 6.1),
// under a kernel mutex: more threads do not help, but they do not hurt.
bool detach_waits_for_grace_period(const Attachment &attachment) {
    return attachment.perf_event.valid() || attachment.kind == AttachmentKind::UprobeMulti ||
           attachment.kind == AttachmentKind::KprobeMulti ||
           attachment.kind == AttachmentKind::Trampoline;
}

// Raises this process's soft limit of open files to its hard limit: each
// perf-event attachment holds two descriptors, and enabling every tracepoint
// (sdt:::) takes thousands where the usual soft limit is 1024. Whether it rose.
bool raise_open_file_limit() {
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur >= files.rlim_max)
        return false;
    files.rlim_cur = files.rlim_max;
    return setrlimit(RLIMIT_NOFILE, &files) == 0;
}

// open(), once more after raising the limit if it ran out of descriptors.
template <typename Open>
Result<UniqueFd> with_open_file_limit_raised(Open open) {
    Result<UniqueFd> fd = open();
    if (!fd && fd.error().errnum == EMFILE && raise_open_file_limit())
        return open();
    return fd;
}

// read_probe_pmu() once per PMU and process: the sysfs files do not change,
// and reading them for each of hundreds of kprobes shows under qemu.
Result<ProbePmu> probe_pmu(std::string_view name, std::string_view target) {
    static std::mutex mutex;
    static std::map<std::string, ProbePmu, std::less<>> known;
    std::lock_guard lock(mutex);
    if (auto it = known.find(name); it != known.end())
        return it->second;
    Result<ProbePmu> pmu = read_probe_pmu(name, target);
    if (pmu)
        known.emplace(std::string(name), *pmu);
    return pmu;
}

} // namespace

Result<std::string> AttachmentSet::tracefs_dir() {
    if (!tracefs_dir_) {
        Result<std::string> dir = find_or_mount_tracefs();
        if (!dir)
            return dir;
        tracefs_dir_ = *dir;
    }
    return *tracefs_dir_;
}

const Attachment *AttachmentSet::add(Attachment attachment) {
    attachments_.push_back(std::move(attachment));
    if (attached_)
        attached_(attachments_.size());
    return &attachments_.back();
}

Result<const Attachment *> AttachmentSet::attach_to_new_perf_event(AttachmentKind kind,
                                                                   std::string description,
                                                                   const perf_event_attr &attr,
                                                                   int pid, int cpu, int prog_fd,
                                                                   uint64_t cookie) {
    Result<UniqueFd> perf_event =
        with_open_file_limit_raised([&] { return open_perf_event(attr, pid, cpu, description); });
    if (!perf_event)
        return perf_event.error();
    Result<UniqueFd> link = with_open_file_limit_raised(
        [&] { return link_perf_event(prog_fd, perf_event->get(), cookie, description); });
    if (!link)
        return link.error();
    return add(
        Attachment{kind, std::move(description), cookie, std::move(*link), std::move(*perf_event)});
}

Result<const Attachment *> AttachmentSet::attach_tracepoint(int prog_fd, std::string_view category,
                                                            std::string_view event,
                                                            uint64_t cookie) {
    std::string description = "tracepoint ";
    description.append(category).append(":").append(event);
    Result<std::string> dir = tracefs_dir();
    if (!dir)
        return dir.error().prefixed(description);
    Result<uint32_t> id = read_tracepoint_id(*dir, category, event);
    if (!id)
        return id.error();

    perf_event_attr attr{};
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.size = sizeof(attr);
    attr.config = *id;
    // A tracepoint runs its bpf programs on whichever CPU it fires, whatever CPU
    // the perf event was opened for: one event (any process, CPU 0) covers the
    // whole system.
    return attach_to_new_perf_event(AttachmentKind::Tracepoint, std::move(description), attr, -1, 0,
                                    prog_fd, cookie);
}

Result<const Attachment *> AttachmentSet::attach_raw_tracepoint(int prog_fd, std::string_view name,
                                                                uint64_t cookie) {
    std::string description = "raw_tracepoint ";
    description.append(name.empty() ? "(BTF target of the program)" : name);
    Result<UniqueFd> link = open_raw_tracepoint(prog_fd, name, cookie, description);
    if (!link)
        return link.error();
    return add(Attachment{AttachmentKind::RawTracepoint, std::move(description), cookie,
                          std::move(*link), UniqueFd()});
}

Result<const Attachment *> AttachmentSet::attach_uprobe(int prog_fd, std::string_view path,
                                                        uint64_t file_offset, bool retprobe,
                                                        uint64_t ref_ctr_offset, int pid,
                                                        uint64_t cookie) {
    std::string path_copy(path);
    std::string description = retprobe ? "uretprobe " : "uprobe ";
    description += path_copy + "+" + hex(file_offset) + pid_suffix(pid);
    Result<ProbePmu> pmu = probe_pmu("uprobe", description);
    if (!pmu)
        return pmu.error();

    perf_event_attr attr{};
    attr.type = pmu->type;
    attr.size = sizeof(attr);
    attr.config = retprobe ? uint64_t{1} << pmu->retprobe_bit : 0;
    if (ref_ctr_offset != 0) {
        if (!pmu->ref_ctr_offset_shift)
            return Error(description + ": this kernel cannot maintain USDT semaphores "
                                       "(uprobe ref_ctr_offset needs Linux 4.20)",
                         ErrorKind::KernelLacksFeature, EOPNOTSUPP);
        attr.config |= ref_ctr_offset << *pmu->ref_ctr_offset_shift;
    }
    attr.config1 = user_pointer(path_copy.c_str());
    attr.config2 = file_offset;
    // A per-process event (cpu -1) installs the breakpoint in that process only;
    // for every process one event on CPU 0 is enough, as for tracepoints.
    bool one_process = pid >= 0;
    return attach_to_new_perf_event(AttachmentKind::Uprobe, std::move(description), attr,
                                    one_process ? pid : -1, one_process ? -1 : 0, prog_fd, cookie);
}

Result<const Attachment *>
AttachmentSet::attach_uprobe_multi(int prog_fd, std::string_view path,
                                   std::span<const uint64_t> offsets,
                                   std::span<const uint64_t> ref_ctr_offsets,
                                   std::span<const uint64_t> cookies, int pid, bool retprobe) {
    std::string description = retprobe ? "uretprobe_multi " : "uprobe_multi ";
    description.append(path).append(" (" + std::to_string(offsets.size()) +
                                    (offsets.size() == 1 ? " offset)" : " offsets)"));
    description += pid_suffix(pid);
    if (offsets.empty() || offsets.size() > UINT32_MAX)
        return Error{description + ": needs 1 to 2^32-1 offsets", EINVAL};
    if ((!ref_ctr_offsets.empty() && ref_ctr_offsets.size() != offsets.size()) ||
        (!cookies.empty() && cookies.size() != offsets.size()))
        return Error{description + ": ref_ctr_offsets and cookies must be empty or have "
                                   "one entry per offset",
                     EINVAL};

    UprobeMultiSpec spec{std::string(path), offsets, ref_ctr_offsets, cookies, pid, retprobe};
    Result<UniqueFd> link = create_uprobe_multi_link(prog_fd, spec, description);
    if (!link) {
        Error error = link.error();
        // Kernels before 6.6 reject the unknown attach type or the attr's tail.
        if (error.errnum == EINVAL || error.errnum == E2BIG || error.errnum == EOPNOTSUPP) {
            if (!kernel_has_uprobe_multi_)
                kernel_has_uprobe_multi_ = kernel_supports_uprobe_multi();
            if (!*kernel_has_uprobe_multi_) {
                error.message =
                    description + ": this kernel has no uprobe_multi links (they need Linux 6.6)";
                error.kind = ErrorKind::KernelLacksFeature;
            }
        }
        return error;
    }
    return add(Attachment{AttachmentKind::UprobeMulti, std::move(description),
                          cookies.empty() ? 0 : cookies.front(), std::move(*link), UniqueFd()});
}

Result<const Attachment *> AttachmentSet::attach_kprobe_multi(int prog_fd,
                                                              std::span<const std::string> symbols,
                                                              std::span<const uint64_t> cookies,
                                                              bool retprobe) {
    std::string description = retprobe ? "kretprobe_multi (" : "kprobe_multi (";
    description +=
        std::to_string(symbols.size()) + (symbols.size() == 1 ? " function)" : " functions)");
    if (symbols.empty() || (!cookies.empty() && cookies.size() != symbols.size()))
        return Error{description + ": needs functions, and cookies empty or one per function",
                     EINVAL};
    std::vector<const char *> names;
    names.reserve(symbols.size());
    for (const std::string &symbol : symbols)
        names.push_back(symbol.c_str());
    LIBBPF_OPTS(bpf_link_create_opts, options);
    options.kprobe_multi.syms = names.data();
    options.kprobe_multi.cnt = uint32_t(names.size());
    options.kprobe_multi.cookies =
        cookies.empty() ? nullptr : reinterpret_cast<const __u64 *>(cookies.data());
    options.kprobe_multi.flags = retprobe ? BPF_F_KPROBE_MULTI_RETURN : 0;
    int fd = bpf_link_create(prog_fd, 0, BPF_TRACE_KPROBE_MULTI, &options);
    if (fd < 0) {
        int err = errno;
        // EOPNOTSUPP: built without CONFIG_FPROBE; EINVAL from kernels before
        // 5.18, which do not know the attach type.
        if (err == EOPNOTSUPP || err == EINVAL) {
            Error error = errno_error(description, "bpf_link_create", err,
                                      "this kernel has no kprobe_multi links: they need "
                                      "Linux 5.18 built with CONFIG_FPROBE");
            error.kind = ErrorKind::KernelLacksFeature;
            return error;
        }
        return errno_error(description, "bpf_link_create", err);
    }
    return add(Attachment{AttachmentKind::KprobeMulti, std::move(description),
                          cookies.empty() ? 0 : cookies.front(), UniqueFd(fd), UniqueFd()});
}

Result<const Attachment *> AttachmentSet::attach_trampoline(int prog_fd, bool fexit,
                                                            std::string description,
                                                            uint64_t cookie) {
    LIBBPF_OPTS(bpf_link_create_opts, options);
    options.tracing.cookie = cookie;
    int fd = bpf_link_create(prog_fd, 0, fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY, &options);
    if (fd < 0)
        return errno_error(description, "bpf_link_create", errno);
    return add(Attachment{AttachmentKind::Trampoline, std::move(description), cookie, UniqueFd(fd),
                          UniqueFd()});
}

Result<const Attachment *> AttachmentSet::attach_kprobe(int prog_fd, std::string_view symbol,
                                                        uint64_t offset, bool retprobe,
                                                        uint64_t cookie) {
    std::string symbol_copy(symbol);
    std::string description = retprobe ? "kretprobe " : "kprobe ";
    description += symbol_copy + "+" + hex(offset);
    Result<ProbePmu> pmu = probe_pmu("kprobe", description);
    if (!pmu)
        return pmu.error();

    perf_event_attr attr{};
    attr.type = pmu->type;
    attr.size = sizeof(attr);
    attr.config = retprobe ? uint64_t{1} << pmu->retprobe_bit : 0;
    attr.config1 = user_pointer(symbol_copy.c_str());
    attr.config2 = offset;
    Result<const Attachment *> attached = attach_to_new_perf_event(
        AttachmentKind::Kprobe, std::move(description), attr, -1, 0, prog_fd, cookie);
    if (!attached) {
        Error error = attached.error();
        if (error.errnum == ENOENT)
            error.message += " (no such kernel symbol)";
        else if (error.errnum == EILSEQ)
            error.message += " (the offset is not at the start of an instruction)";
        else if (error.errnum == EINVAL)
            error.message += " (kprobes refuse this function or address: see "
                             "/sys/kernel/debug/kprobes/blacklist)";
        return error;
    }
    return attached;
}

Result<const Attachment *> AttachmentSet::attach_perf_event(int prog_fd,
                                                            const perf_event_attr &attr, int cpu,
                                                            int pid, uint64_t cookie) {
    std::string description = "perf_event " + describe_perf_event(attr);
    if (cpu >= 0)
        description += " cpu " + std::to_string(cpu);
    description += pid_suffix(pid);
    return attach_to_new_perf_event(AttachmentKind::PerfEvent, std::move(description), attr, pid,
                                    cpu, prog_fd, cookie);
}

DetachProgress terminal_detach_progress(FILE *stream) {
    if (!stream || !isatty(fileno(stream)))
        return nullptr;
    return [stream](std::size_t left, std::size_t total) {
        // Each state rewrites the line from its start and erases what is left
        // of a longer one ("\033[K"); the last one erases it all.
        if (left == 0)
            std::fputs("\r\033[K", stream);
        else
            std::fprintf(stream, "\rdtx: detaching %s probes ... %s left\033[K",
                         digits_grouped(total).c_str(), digits_grouped(left).c_str());
        std::fflush(stream);
    };
}

AttachProgressLine::AttachProgressLine(FILE *stream, std::size_t total)
    : stream_(stream && isatty(fileno(stream)) ? stream : nullptr), total_(total),
      start_(std::chrono::steady_clock::now()), next_(start_ + kDetachProgressDelay) {}

void AttachProgressLine::update(std::size_t done) {
    if (!stream_)
        return;
    auto now = std::chrono::steady_clock::now();
    if (now < next_)
        return;
    next_ = now + kDetachProgressInterval;
    std::fprintf(stream_, "\rdtx: attaching %s probes ... %s attached\033[K",
                 digits_grouped(total_).c_str(), digits_grouped(std::min(done, total_)).c_str());
    std::fflush(stream_);
    shown_ = true;
}

void AttachProgressLine::finish() {
    if (!shown_)
        return;
    std::fputs("\r\033[K", stream_);
    std::fflush(stream_);
    shown_ = false;
}

DetachStats AttachmentSet::detach_all(unsigned max_threads) {
    auto start = std::chrono::steady_clock::now();
    std::vector<Attachment *> slow;
    for (Attachment &attachment : attachments_) {
        if (detach_waits_for_grace_period(attachment))
            slow.push_back(&attachment);
        else
            attachment.detach();
    }

    // Each thread takes the next attachment and closes its link, then its perf
    // event. While one thread holds event_mutex unregistering a perf event, the
    // others close links, whose grace periods overlap.
    std::atomic<size_t> next{0}, closed{0};
    std::mutex mutex;
    std::condition_variable all_closed;
    auto detach_remaining = [&] {
        for (size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < slow.size();) {
            slow[i]->detach();
            if (closed.fetch_add(1) + 1 == slow.size()) {
                std::lock_guard lock(mutex);
                all_closed.notify_all();
            }
        }
    };
    // With progress to tell, the calling thread watches while helpers close.
    const bool watching = progress_ && !slow.empty();
    size_t wanted_threads = std::clamp<size_t>(slow.size(), 1, std::max(max_threads, 1u));
    std::vector<std::thread> helpers;
    for (size_t i = watching ? 0 : 1; i < wanted_threads; ++i) {
        try {
            helpers.emplace_back(detach_remaining);
        } catch (const std::exception &) {
            break; // no more threads: the ones we have finish the work
        }
    }
    const bool watched = watching && !helpers.empty();
    if (watched) {
        bool told = false;
        auto report_at = start + kDetachProgressDelay;
        std::unique_lock lock(mutex);
        while (!all_closed.wait_until(lock, report_at, [&] { return closed == slow.size(); })) {
            lock.unlock();
            progress_(slow.size() - closed, slow.size());
            told = true;
            report_at = std::chrono::steady_clock::now() + kDetachProgressInterval;
            lock.lock();
        }
        lock.unlock();
        if (told)
            progress_(0, slow.size());
    } else {
        detach_remaining();
    }
    for (std::thread &helper : helpers)
        helper.join();

    DetachStats stats;
    stats.attachments = attachments_.size();
    stats.threads = static_cast<unsigned>(helpers.size() + (watched ? 0 : 1));
    stats.elapsed = std::chrono::steady_clock::now() - start;
    attachments_.clear();
    last_detach_ = stats;
    return stats;
}

} // namespace dtx::trace
