// Tests of the perf/link layer against the live kernel (run as root): each
// attachment kind must fire, carry its cookie, honour its pid filter, and leave
// nothing behind after detach_all().
#include "libtrace/attach.h"
#include "libtrace/perf_event.h"
#include "libtrace/tracefs.h"

#include <bpf/libbpf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/bpf.h>
#include <pty.h>
#include <sched.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

// Uprobe targets. Each test probes its own functions, so other tests (or other
// runs of this binary) calling them cannot disturb its counts.
extern "C" {
__attribute__((noinline, used)) int dtx_attach_test_filtered(int x) {
    asm volatile("" ::: "memory");
    return x + 1;
}
__attribute__((noinline, used)) int dtx_attach_test_returning(int x) {
    asm volatile("" ::: "memory");
    return x + 2;
}
__attribute__((noinline, used)) int dtx_attach_test_multi_a(int x) {
    asm volatile("" ::: "memory");
    return x + 3;
}
__attribute__((noinline, used)) int dtx_attach_test_multi_b(int x) {
    asm volatile("" ::: "memory");
    return x + 4;
}
__attribute__((noinline, used)) int dtx_attach_test_multi_c(int x) {
    asm volatile("" ::: "memory");
    return x + 5;
}
__attribute__((noinline, used)) int dtx_attach_test_detach(int x) {
    asm volatile("" ::: "memory");
    return x + 6;
}
}

namespace dtx::trace {
namespace {

using namespace std::chrono_literals;

long sys_bpf(int cmd, bpf_attr &attr) {
    return syscall(__NR_bpf, cmd, &attr, sizeof(attr));
}

uint64_t user_pointer(const void *pointer) {
    return reinterpret_cast<uintptr_t>(pointer);
}

// ---- A tiny BPF assembler, enough for the counting program below.

bpf_insn make_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm) {
    bpf_insn insn{};
    insn.code = code;
    insn.dst_reg = dst & 0xf;
    insn.src_reg = src & 0xf;
    insn.off = off;
    insn.imm = imm;
    return insn;
}
bpf_insn mov64_reg(uint8_t dst, uint8_t src) {
    return make_insn(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}
bpf_insn mov64_imm(uint8_t dst, int32_t imm) {
    return make_insn(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}
bpf_insn alu64_imm(uint8_t op, uint8_t dst, int32_t imm) {
    return make_insn(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm);
}
bpf_insn call_helper(int32_t helper) {
    return make_insn(BPF_JMP | BPF_CALL, 0, 0, 0, helper);
}
bpf_insn exit_insn() {
    return make_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

// Counts firings per cookie: counts[cookie] += 1 in a per-CPU array, so a test
// can see both the cookie and the CPU each firing happened on; without
// `read_cookie`, counts[0]. With `only_tgid` it ignores every other process.
std::vector<bpf_insn> counting_program(int map_fd, std::optional<uint32_t> only_tgid,
                                       bool read_cookie) {
    std::vector<bpf_insn> insns;
    std::vector<size_t> jumps_to_exit;
    insns.push_back(mov64_reg(BPF_REG_6, BPF_REG_1)); // keep the context
    if (only_tgid) {
        insns.push_back(call_helper(BPF_FUNC_get_current_pid_tgid));
        insns.push_back(alu64_imm(BPF_RSH, BPF_REG_0, 32));
        jumps_to_exit.push_back(insns.size());
        insns.push_back(make_insn(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, 0,
                                  static_cast<int32_t>(*only_tgid)));
    }
    if (read_cookie) {
        insns.push_back(mov64_reg(BPF_REG_1, BPF_REG_6));
        insns.push_back(call_helper(BPF_FUNC_get_attach_cookie));
    } else {
        insns.push_back(mov64_imm(BPF_REG_0, 0));
    }
    // key = (u32)cookie at fp-4
    insns.push_back(make_insn(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_0, -4, 0));
    insns.push_back(mov64_reg(BPF_REG_2, BPF_REG_10));
    insns.push_back(alu64_imm(BPF_ADD, BPF_REG_2, -4));
    insns.push_back(make_insn(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, map_fd));
    insns.push_back(make_insn(0, 0, 0, 0, 0));
    insns.push_back(call_helper(BPF_FUNC_map_lookup_elem));
    jumps_to_exit.push_back(insns.size());
    insns.push_back(make_insn(BPF_JMP | BPF_JEQ | BPF_K, BPF_REG_0, 0, 0, 0));
    insns.push_back(mov64_imm(BPF_REG_1, 1));
    insns.push_back(make_insn(BPF_STX | BPF_DW | BPF_ATOMIC, BPF_REG_0, BPF_REG_1, 0, BPF_ADD));
    size_t exit_at = insns.size();
    insns.push_back(mov64_imm(BPF_REG_0, 0));
    insns.push_back(exit_insn());
    for (size_t jump : jumps_to_exit)
        insns[jump].off = static_cast<int16_t>(exit_at - jump - 1);
    return insns;
}

constexpr uint32_t kCookieSlots = 16;

// The counting program, loaded for one program type, and its per-CPU map.
// Where the program type cannot read cookies (raw tracepoints before Linux
// 6.10), it counts everything under cookie 0.
class CountingProgram {
public:
    CountingProgram(bpf_prog_type type, std::optional<uint32_t> only_tgid,
                    uint32_t expected_attach_type = 0) {
        bpf_attr create{};
        create.map_type = BPF_MAP_TYPE_PERCPU_ARRAY;
        create.key_size = sizeof(uint32_t);
        create.value_size = sizeof(uint64_t);
        create.max_entries = kCookieSlots;
        map_.reset(static_cast<int>(sys_bpf(BPF_MAP_CREATE, create)));
        if (!map_) {
            error_ = std::string("BPF_MAP_CREATE: ") + std::strerror(errno);
            return;
        }
        for (bool read_cookie : {true, false}) {
            std::vector<bpf_insn> insns = counting_program(map_.get(), only_tgid, read_cookie);
            std::vector<char> log(64 * 1024);
            bpf_attr load{};
            load.prog_type = type;
            load.expected_attach_type = expected_attach_type;
            load.insns = user_pointer(insns.data());
            load.insn_cnt = static_cast<uint32_t>(insns.size());
            load.license = user_pointer("GPL");
            load.log_buf = user_pointer(log.data());
            load.log_size = static_cast<uint32_t>(log.size());
            load.log_level = 1;
            prog_.reset(static_cast<int>(sys_bpf(BPF_PROG_LOAD, load)));
            if (prog_) {
                reads_cookie_ = read_cookie;
                error_.clear();
                return;
            }
            error_ += std::string("BPF_PROG_LOAD: ") + std::strerror(errno) + "\n" + log.data();
        }
    }

    int fd() const { return prog_.get(); }
    bool reads_cookie() const { return reads_cookie_; }
    const std::string &error() const { return error_; }

    // counts[cookie] on each possible CPU.
    std::vector<uint64_t> per_cpu(uint32_t cookie) const {
        std::vector<uint64_t> values(static_cast<size_t>(libbpf_num_possible_cpus()));
        bpf_attr lookup{};
        lookup.map_fd = static_cast<uint32_t>(map_.get());
        lookup.key = user_pointer(&cookie);
        lookup.value = user_pointer(values.data());
        if (sys_bpf(BPF_MAP_LOOKUP_ELEM, lookup) != 0)
            ADD_FAILURE() << "BPF_MAP_LOOKUP_ELEM: " << std::strerror(errno);
        return values;
    }
    uint64_t total(uint32_t cookie) const {
        std::vector<uint64_t> values = per_cpu(cookie);
        return std::accumulate(values.begin(), values.end(), uint64_t{0});
    }

private:
    UniqueFd map_;
    UniqueFd prog_;
    bool reads_cookie_ = false;
    std::string error_;
};

// Where a function of this binary lies in its file, from /proc/self/maps.
struct CodeLocation {
    std::string path;
    uint64_t file_offset = 0;
};

std::optional<CodeLocation> locate(int (*function)(int)) {
    auto address = reinterpret_cast<uintptr_t>(function);
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode, path;
        fields >> range >> perms >> offset >> device >> inode >> path;
        uintptr_t start = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
        uintptr_t end = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
        if (address >= start && address < end && perms.find('x') != std::string::npos)
            return CodeLocation{path, address - start + std::stoull(offset, nullptr, 16)};
    }
    return std::nullopt;
}

std::vector<int> allowed_cpus() {
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return cpus;
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
        if (CPU_ISSET(cpu, &set))
            cpus.push_back(cpu);
    return cpus;
}

// Runs `work` in a thread pinned to `cpu`; false if it could not be pinned.
template <typename Work>
bool run_on_cpu(int cpu, Work work) {
    bool pinned = false;
    std::thread thread([&] {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pinned = sched_setaffinity(0, sizeof(set), &set) == 0;
        if (pinned)
            work();
    });
    thread.join();
    return pinned;
}

// How many of this process's fds are perf events and bpf links.
struct OpenKernelObjects {
    int perf_events = 0;
    int bpf_links = 0;
    bool operator==(const OpenKernelObjects &) const = default;
};

OpenKernelObjects open_kernel_objects() {
    OpenKernelObjects objects;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/fd")) {
        std::error_code ignored;
        std::string target = std::filesystem::read_symlink(entry.path(), ignored).string();
        objects.perf_events += target == "anon_inode:[perf_event]";
        objects.bpf_links += target == "anon_inode:bpf_link";
    }
    return objects;
}

struct LinkIds {
    uint32_t id = 0;
    uint32_t prog_id = 0;
};

std::optional<LinkIds> link_ids(int link_fd) {
    bpf_link_info info{};
    bpf_attr attr{};
    attr.info.bpf_fd = static_cast<uint32_t>(link_fd);
    attr.info.info_len = sizeof(info);
    attr.info.info = user_pointer(&info);
    if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, attr) != 0)
        return std::nullopt;
    return LinkIds{info.id, info.prog_id};
}

// Every bpf link in the system, enumerated with BPF_LINK_GET_NEXT_ID.
std::vector<LinkIds> all_links() {
    std::vector<LinkIds> links;
    bpf_attr attr{};
    while (sys_bpf(BPF_LINK_GET_NEXT_ID, attr) == 0) {
        uint32_t id = attr.next_id;
        bpf_attr by_id{};
        by_id.link_id = id;
        UniqueFd fd(static_cast<int>(sys_bpf(BPF_LINK_GET_FD_BY_ID, by_id)));
        if (fd) {
            if (std::optional<LinkIds> ids = link_ids(fd.get()))
                links.push_back(*ids);
        }
        attr = bpf_attr{};
        attr.start_id = id;
    }
    return links;
}

std::string uprobe_events(const std::string &tracefs) {
    std::ifstream file(tracefs + "/uprobe_events");
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

class AttachTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0)
            GTEST_SKIP() << "skipped: attaching needs root";
    }
};

TEST(TracefsTest, FindsTracefsAndReadsTracepointIds) {
    if (geteuid() != 0)
        GTEST_SKIP() << "skipped: tracefs may need mounting, which needs root";
    Result<std::string> tracefs = find_or_mount_tracefs();
    ASSERT_TRUE(tracefs) << tracefs.error().message;
    EXPECT_TRUE(std::filesystem::exists(*tracefs + "/events"));

    Result<uint32_t> id = read_tracepoint_id(*tracefs, "syscalls", "sys_enter_getppid");
    ASSERT_TRUE(id) << id.error().message;
    EXPECT_GT(*id, 0u);

    Result<uint32_t> missing = read_tracepoint_id(*tracefs, "syscalls", "sys_enter_nope");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().errnum, ENOENT);
    EXPECT_TRUE(missing.error().message.starts_with("tracepoint syscalls:sys_enter_nope: "))
        << missing.error().message;
    EXPECT_NE(missing.error().message.find("No such file or directory"), std::string::npos);

    EXPECT_FALSE(read_tracepoint_id(*tracefs, "..", "syscalls"));

    Result<std::vector<std::string>> events = list_tracepoints(*tracefs, "syscalls");
    ASSERT_TRUE(events) << events.error().message;
    EXPECT_TRUE(std::binary_search(events->begin(), events->end(), "sys_enter_getppid"));
    EXPECT_FALSE(std::binary_search(events->begin(), events->end(), "enable"));
}

TEST(PmuFormatTest, ParsesConfigFields) {
    EXPECT_EQ(parse_pmu_config_field("config:0"), 0u);
    EXPECT_EQ(parse_pmu_config_field("config:32-63"), 32u);
    EXPECT_EQ(parse_pmu_config_field("config:5\n"), 5u);
    EXPECT_EQ(parse_pmu_config_field("config1:0-63"), std::nullopt);
    EXPECT_EQ(parse_pmu_config_field("config:"), std::nullopt);
    EXPECT_EQ(parse_pmu_config_field("config:64"), std::nullopt);
    EXPECT_EQ(parse_pmu_config_field("config:3x"), std::nullopt);
}

TEST(PmuFormatTest, ReadsTheUprobePmu) {
    Result<ProbePmu> pmu = read_probe_pmu("uprobe", "uprobe test");
    if (!pmu && pmu.error().kind == dtx::ErrorKind::KernelLacksFeature)
        GTEST_SKIP() << "skipped: " << pmu.error().message;
    ASSERT_TRUE(pmu) << pmu.error().message;
    EXPECT_GT(pmu->type, 0u);
    EXPECT_LT(pmu->retprobe_bit, 64u);
    EXPECT_TRUE(pmu->ref_ctr_offset_shift.has_value());
}

TEST(UniqueFdTest, ClosesWhatItOwns) {
    int pipe_fds[2];
    ASSERT_EQ(pipe(pipe_fds), 0);
    UniqueFd write_end(pipe_fds[1]);
    {
        UniqueFd read_end(pipe_fds[0]);
        UniqueFd moved = std::move(read_end);
        EXPECT_FALSE(read_end);
        EXPECT_EQ(moved.get(), pipe_fds[0]);
    }
    EXPECT_EQ(fcntl(pipe_fds[0], F_GETFD), -1);
    int released = write_end.release();
    EXPECT_FALSE(write_end);
    EXPECT_EQ(close(released), 0);
}

TEST(DetachProgressTest, ALineOnATerminalOnly) {
    FILE *file = std::tmpfile();
    ASSERT_NE(file, nullptr);
    EXPECT_FALSE(terminal_detach_progress(file));
    std::fclose(file);

    int master = -1, slave = -1;
    ASSERT_EQ(openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
    FILE *terminal = fdopen(slave, "w");
    ASSERT_NE(terminal, nullptr);
    DetachProgress progress = terminal_detach_progress(terminal);
    ASSERT_TRUE(progress);
    progress(800, 1584);
    progress(12, 1584);
    progress(0, 1584);
    std::fclose(terminal);
    // A pty's reader may get the writes in pieces: read until the closed
    // slave's end (EIO).
    std::string written;
    char chunk[256];
    for (ssize_t n; (n = read(master, chunk, sizeof chunk)) > 0;)
        written.append(chunk, size_t(n));
    close(master);
    // Each state rewrites the line; the last one erases it.
    EXPECT_EQ(written, "\rdtx: detaching 1,584 probes ... 800 left\x1b[K"
                       "\rdtx: detaching 1,584 probes ... 12 left\x1b[K"
                       "\r\x1b[K");
}

// detach_all() tells how many perf-event attachments are left only when it
// takes longer than kDetachProgressDelay, each time fewer, then 0.
TEST_F(AttachTest, DetachTellsItsProgressWhenSlow) {
    Result<std::string> tracefs = find_or_mount_tracefs();
    ASSERT_TRUE(tracefs) << tracefs.error().message;
    Result<std::vector<std::string>> events = list_tracepoints(*tracefs, "syscalls");
    ASSERT_TRUE(events) << events.error().message;
    CountingProgram program(BPF_PROG_TYPE_TRACEPOINT, getpid());
    ASSERT_TRUE(program.fd() >= 0) << program.error();

    std::vector<std::pair<size_t, size_t>> told; // (left, total)
    AttachmentSet set([&](size_t left, size_t total) { told.emplace_back(left, total); });
    // Some 40 tracepoints: a second or more to detach on our VMs.
    for (const std::string &event : *events) {
        if (set.size() == 40)
            break;
        if (event.starts_with("sys_enter_")) {
            ASSERT_TRUE(set.attach_tracepoint(program.fd(), "syscalls", event));
        }
    }
    DetachStats stats = set.detach_all();
    EXPECT_TRUE(set.empty());
    if (stats.elapsed < kDetachProgressDelay) {
        EXPECT_TRUE(told.empty());
        GTEST_SKIP() << "the detach took less than kDetachProgressDelay: nothing to tell";
    }
    ASSERT_GE(told.size(), 2u);
    for (size_t i = 0; i < told.size(); i++) {
        EXPECT_EQ(told[i].second, 40u);
        if (i > 0) {
            EXPECT_LE(told[i].first, told[i - 1].first);
        }
    }
    EXPECT_GT(told.front().first, 0u);
    EXPECT_EQ(told.back().first, 0u);
}

TEST_F(AttachTest, TracepointFiresOnEveryCpuWithItsCookie) {
    CountingProgram program(BPF_PROG_TYPE_TRACEPOINT, getpid());
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    constexpr uint64_t kCookie = 5;
    auto attached = set.attach_tracepoint(program.fd(), "syscalls", "sys_enter_getppid", kCookie);
    ASSERT_TRUE(attached) << attached.error().message;
    EXPECT_EQ((*attached)->description, "tracepoint syscalls:sys_enter_getppid");
    EXPECT_EQ((*attached)->kind, AttachmentKind::Tracepoint);

    // The perf event is opened for CPU 0 only; the program must still run for
    // getppid() calls made on every other CPU.
    constexpr int kCalls = 50;
    std::vector<int> cpus_used;
    for (int cpu : allowed_cpus()) {
        if (run_on_cpu(cpu, [] {
                for (int i = 0; i < kCalls; ++i)
                    syscall(SYS_getppid);
            }))
            cpus_used.push_back(cpu);
    }
    ASSERT_FALSE(cpus_used.empty());
    std::vector<uint64_t> per_cpu = program.per_cpu(kCookie);
    for (int cpu : cpus_used)
        EXPECT_EQ(per_cpu.at(static_cast<size_t>(cpu)), uint64_t{kCalls}) << "on CPU " << cpu;
    EXPECT_EQ(program.total(0), 0u) << "the cookie was not seen";
}

TEST_F(AttachTest, RawTracepointFiresWithItsCookie) {
    CountingProgram program(BPF_PROG_TYPE_RAW_TRACEPOINT, getpid());
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    uint32_t cookie = 3;
    if (!program.reads_cookie()) { // before Linux 6.10
        auto refused = set.attach_raw_tracepoint(program.fd(), "sys_enter", cookie);
        ASSERT_FALSE(refused);
        EXPECT_TRUE(refused.error().kind == dtx::ErrorKind::KernelLacksFeature)
            << refused.error().message;
        cookie = 0;
    }
    auto attached = set.attach_raw_tracepoint(program.fd(), "sys_enter", cookie);
    ASSERT_TRUE(attached) << attached.error().message;
    EXPECT_EQ((*attached)->description, "raw_tracepoint sys_enter");

    constexpr int kCalls = 50;
    for (int i = 0; i < kCalls; ++i)
        syscall(SYS_getppid);
    // Every syscall of this process counts, not only getppid().
    EXPECT_GE(program.total(cookie), uint64_t{kCalls});

    auto missing = set.attach_raw_tracepoint(program.fd(), "no_such_raw_tracepoint");
    ASSERT_FALSE(missing);
    EXPECT_TRUE(missing.error().message.starts_with("raw_tracepoint no_such_raw_tracepoint: "))
        << missing.error().message;
}

// A child process blocked until released; reaped on destruction.
class BlockedChild {
public:
    template <typename Work>
    explicit BlockedChild(Work work) {
        int fds[2];
        if (pipe(fds) != 0)
            return;
        pid_ = fork();
        if (pid_ == 0) {
            close(fds[1]);
            char byte;
            if (read(fds[0], &byte, 1) == 1)
                work();
            _exit(0);
        }
        close(fds[0]);
        release_.reset(fds[1]);
    }
    ~BlockedChild() { wait(); }
    pid_t pid() const { return pid_; }
    void release() {
        if (release_ && write(release_.get(), "x", 1) != 1)
            ADD_FAILURE() << "cannot release the child: " << std::strerror(errno);
        release_.reset();
    }
    void wait() {
        release_.reset(); // a child never released exits without working
        if (pid_ > 0)
            waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

private:
    pid_t pid_ = -1;
    UniqueFd release_;
};

TEST_F(AttachTest, UprobeFiresOnlyInTheProcessItFilters) {
    std::optional<CodeLocation> target = locate(dtx_attach_test_filtered);
    ASSERT_TRUE(target);
    CountingProgram program(BPF_PROG_TYPE_KPROBE, std::nullopt);
    ASSERT_TRUE(program.fd() >= 0) << program.error();

    constexpr int kParentCalls = 7;
    constexpr int kChildCalls = 11;
    BlockedChild child([] {
        for (int i = 0; i < kChildCalls; ++i)
            dtx_attach_test_filtered(i);
    });
    ASSERT_GT(child.pid(), 0);

    AttachmentSet set;
    constexpr uint64_t kParentCookie = 1, kChildCookie = 2;
    auto parent_probe = set.attach_uprobe(program.fd(), target->path, target->file_offset, false, 0,
                                          getpid(), kParentCookie);
    ASSERT_TRUE(parent_probe) << parent_probe.error().message;
    EXPECT_TRUE((*parent_probe)->description.starts_with("uprobe " + target->path + "+0x"));
    auto child_probe = set.attach_uprobe(program.fd(), target->path, target->file_offset, false, 0,
                                         child.pid(), kChildCookie);
    ASSERT_TRUE(child_probe) << child_probe.error().message;

    child.release();
    for (int i = 0; i < kParentCalls; ++i)
        dtx_attach_test_filtered(i);
    child.wait();

    EXPECT_EQ(program.total(kParentCookie), uint64_t{kParentCalls});
    EXPECT_EQ(program.total(kChildCookie), uint64_t{kChildCalls});
}

TEST_F(AttachTest, UretprobeFires) {
    std::optional<CodeLocation> target = locate(dtx_attach_test_returning);
    ASSERT_TRUE(target);
    CountingProgram program(BPF_PROG_TYPE_KPROBE, std::nullopt);
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    auto attached =
        set.attach_uprobe(program.fd(), target->path, target->file_offset, true, 0, getpid(), 4);
    ASSERT_TRUE(attached) << attached.error().message;
    EXPECT_TRUE((*attached)->description.starts_with("uretprobe "));

    constexpr int kCalls = 9;
    for (int i = 0; i < kCalls; ++i)
        dtx_attach_test_returning(i);
    EXPECT_EQ(program.total(4), uint64_t{kCalls});
}

TEST_F(AttachTest, UprobeMultiFiresOnEveryOffsetWithItsCookie) {
    std::vector<uint64_t> offsets;
    std::string path;
    for (auto function :
         {dtx_attach_test_multi_a, dtx_attach_test_multi_b, dtx_attach_test_multi_c}) {
        std::optional<CodeLocation> location = locate(function);
        ASSERT_TRUE(location);
        offsets.push_back(location->file_offset);
        path = location->path;
    }
    CountingProgram program(BPF_PROG_TYPE_KPROBE, std::nullopt, kBpfTraceUprobeMulti);
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    const std::vector<uint64_t> cookies = {1, 2, 3};
    auto attached =
        set.attach_uprobe_multi(program.fd(), path, offsets, {}, cookies, getpid(), false);
    if (!attached && attached.error().kind == dtx::ErrorKind::KernelLacksFeature)
        GTEST_SKIP() << "skipped: " << attached.error().message;
    ASSERT_TRUE(attached) << attached.error().message;
    EXPECT_EQ((*attached)->description,
              "uprobe_multi " + path + " (3 offsets) pid " + std::to_string(getpid()));
    EXPECT_EQ(set.size(), 1u);

    dtx_attach_test_multi_a(0);
    dtx_attach_test_multi_b(0);
    dtx_attach_test_multi_b(0);
    dtx_attach_test_multi_c(0);
    dtx_attach_test_multi_c(0);
    dtx_attach_test_multi_c(0);
    EXPECT_EQ(program.total(1), 1u);
    EXPECT_EQ(program.total(2), 2u);
    EXPECT_EQ(program.total(3), 3u);

    auto mismatched = set.attach_uprobe_multi(program.fd(), path, offsets, {}, {{1, 2}}, -1, true);
    ASSERT_FALSE(mismatched);
    EXPECT_TRUE(mismatched.error().message.starts_with("uretprobe_multi " + path))
        << mismatched.error().message;
}

TEST_F(AttachTest, KprobeFailsClearlyWithoutKprobes) {
    if (std::filesystem::exists("/sys/bus/event_source/devices/kprobe"))
        GTEST_SKIP() << "skipped: this kernel has kprobes";
    CountingProgram program(BPF_PROG_TYPE_KPROBE, std::nullopt);
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    auto attached = set.attach_kprobe(program.fd(), "do_sys_openat2", 0, false);
    ASSERT_FALSE(attached);
    EXPECT_TRUE(attached.error().kind == dtx::ErrorKind::KernelLacksFeature);
    EXPECT_TRUE(attached.error().message.starts_with(
        "kprobe do_sys_openat2+0x0: this kernel has no kprobe support"))
        << attached.error().message;
    EXPECT_TRUE(set.empty());
}

// The kernel's getppid() entry point, for kprobes; empty if kallsyms has none.
std::string getppid_kernel_symbol() {
    std::ifstream kallsyms("/proc/kallsyms");
    std::string address, type, name;
    while (kallsyms >> address >> type >> name) {
        if (name == "__x64_sys_getppid" || name == "__arm64_sys_getppid")
            return name;
        kallsyms.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return "";
}

TEST_F(AttachTest, KprobeAndKretprobeFire) {
    if (!std::filesystem::exists("/sys/bus/event_source/devices/kprobe"))
        GTEST_SKIP() << "skipped: this kernel has no kprobes";
    std::string symbol = getppid_kernel_symbol();
    if (symbol.empty())
        GTEST_SKIP() << "skipped: no getppid syscall symbol in /proc/kallsyms";
    CountingProgram program(BPF_PROG_TYPE_KPROBE, getpid());
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    auto entry = set.attach_kprobe(program.fd(), symbol, 0, false, 1);
    ASSERT_TRUE(entry) << entry.error().message;
    EXPECT_EQ((*entry)->description, "kprobe " + symbol + "+0x0");
    auto exit = set.attach_kprobe(program.fd(), symbol, 0, true, 2);
    ASSERT_TRUE(exit) << exit.error().message;

    constexpr int kCalls = 20;
    for (int i = 0; i < kCalls; ++i)
        syscall(SYS_getppid);
    EXPECT_EQ(program.total(1), uint64_t{kCalls});
    EXPECT_EQ(program.total(2), uint64_t{kCalls});
}

TEST_F(AttachTest, CpuClockEventsFireOnEveryBusyCpu) {
    CountingProgram program(BPF_PROG_TYPE_PERF_EVENT, std::nullopt);
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = 1'000'000; // 1 ms of CPU time
    std::vector<int> cpus;
    for (int cpu : allowed_cpus()) {
        if (static_cast<uint32_t>(cpu) >= kCookieSlots)
            break;
        // The cookie is the CPU number.
        auto attached = set.attach_perf_event(program.fd(), attr, cpu, -1, cpu);
        ASSERT_TRUE(attached) << attached.error().message;
        EXPECT_EQ((*attached)->description,
                  "perf_event cpu-clock period 1000000 cpu " + std::to_string(cpu));
        cpus.push_back(cpu);
    }

    // An idle CPU's clock event may never fire on these VMs, so keep each CPU
    // busy until its event has fired a few times (or give up after a while).
    for (int cpu : cpus) {
        auto deadline = std::chrono::steady_clock::now() + 30s;
        uint32_t cookie = static_cast<uint32_t>(cpu);
        bool pinned = run_on_cpu(cpu, [&] {
            while (program.per_cpu(cookie).at(static_cast<size_t>(cpu)) < 3 &&
                   std::chrono::steady_clock::now() < deadline) {
                auto busy_until = std::chrono::steady_clock::now() + 10ms;
                while (std::chrono::steady_clock::now() < busy_until) {
                }
            }
        });
        if (pinned) {
            EXPECT_GE(program.per_cpu(cookie).at(static_cast<size_t>(cpu)), 3u) << "CPU " << cpu;
        }
    }
}

TEST_F(AttachTest, ErrorsNameTheTarget) {
    CountingProgram program(BPF_PROG_TYPE_KPROBE, std::nullopt);
    ASSERT_TRUE(program.fd() >= 0) << program.error();
    AttachmentSet set;
    auto missing_file = set.attach_uprobe(program.fd(), "/no/such/binary", 0x10, false);
    ASSERT_FALSE(missing_file);
    EXPECT_EQ(missing_file.error().message,
              "uprobe /no/such/binary+0x10: perf_event_open: No such file or directory");

    auto missing_event = set.attach_tracepoint(program.fd(), "syscalls", "sys_enter_nope");
    ASSERT_FALSE(missing_event);
    EXPECT_TRUE(missing_event.error().message.starts_with("tracepoint syscalls:sys_enter_nope: "));

    // A kprobe program cannot run on a tracepoint.
    auto wrong_type = set.attach_tracepoint(program.fd(), "syscalls", "sys_enter_getppid");
    ASSERT_FALSE(wrong_type);
    EXPECT_TRUE(wrong_type.error().message.starts_with("tracepoint syscalls:sys_enter_getppid: "))
        << wrong_type.error().message;
    EXPECT_TRUE(set.empty());
}

TEST_F(AttachTest, DetachAllLeavesNothingBehind) {
    std::optional<CodeLocation> target = locate(dtx_attach_test_detach);
    ASSERT_TRUE(target);
    Result<std::string> tracefs = find_or_mount_tracefs();
    ASSERT_TRUE(tracefs) << tracefs.error().message;
    OpenKernelObjects before = open_kernel_objects();

    CountingProgram tracepoint_program(BPF_PROG_TYPE_TRACEPOINT, getpid());
    CountingProgram raw_program(BPF_PROG_TYPE_RAW_TRACEPOINT, getpid());
    CountingProgram uprobe_program(BPF_PROG_TYPE_KPROBE, std::nullopt);
    CountingProgram multi_program(BPF_PROG_TYPE_KPROBE, std::nullopt, kBpfTraceUprobeMulti);
    CountingProgram perf_program(BPF_PROG_TYPE_PERF_EVENT, std::nullopt);
    for (const CountingProgram *program :
         {&tracepoint_program, &raw_program, &uprobe_program, &multi_program, &perf_program})
        ASSERT_TRUE(program->fd() >= 0) << program->error();

    AttachmentSet set;
    auto check = [](const Result<const Attachment *> &result) {
        ASSERT_TRUE(result) << result.error().message;
    };
    check(set.attach_tracepoint(tracepoint_program.fd(), "syscalls", "sys_enter_getppid"));
    check(set.attach_tracepoint(tracepoint_program.fd(), "syscalls", "sys_exit_getppid"));
    check(set.attach_raw_tracepoint(raw_program.fd(), "sys_exit"));
    check(set.attach_uprobe(uprobe_program.fd(), target->path, target->file_offset, false, 0, -1));
    check(set.attach_uprobe(uprobe_program.fd(), target->path, target->file_offset, true, 0,
                            getpid()));
    const uint64_t offsets[] = {target->file_offset};
    auto multi =
        set.attach_uprobe_multi(multi_program.fd(), target->path, offsets, {}, {}, -1, false);
    if (!multi && multi.error().kind != dtx::ErrorKind::KernelLacksFeature)
        ADD_FAILURE() << multi.error().message;
    perf_event_attr clock{};
    clock.type = PERF_TYPE_SOFTWARE;
    clock.size = sizeof(clock);
    clock.config = PERF_COUNT_SW_CPU_CLOCK;
    clock.sample_period = 10'000'000;
    check(set.attach_perf_event(perf_program.fd(), clock, 0, -1));
    if (HasFatalFailure())
        return;

    std::vector<LinkIds> ours;
    std::set<uint32_t> our_programs;
    for (const Attachment &attachment : set) {
        EXPECT_FALSE(attachment.description.empty());
        if (attachment.link) {
            std::optional<LinkIds> ids = link_ids(attachment.link.get());
            ASSERT_TRUE(ids);
            ours.push_back(*ids);
            our_programs.insert(ids->prog_id);
        }
    }
    EXPECT_EQ(ours.size(), set.size()) << "every attachment should be a bpf link on this kernel";
    OpenKernelObjects attached = open_kernel_objects();
    EXPECT_GT(attached.perf_events, before.perf_events);
    EXPECT_GT(attached.bpf_links, before.bpf_links);
    // PMU uprobes are not tracefs uprobe events: a killed dtx leaves none behind.
    EXPECT_EQ(uprobe_events(*tracefs).find(target->path), std::string::npos);

    size_t attachment_count = set.size();
    DetachStats stats = set.detach_all();
    EXPECT_EQ(stats.attachments, attachment_count);
    EXPECT_GE(stats.threads, 1u);
    EXPECT_GT(stats.elapsed.count(), 0);
    ASSERT_TRUE(set.last_detach());
    EXPECT_EQ(set.last_detach()->attachments, attachment_count);
    EXPECT_TRUE(set.empty());
    EXPECT_EQ(open_kernel_objects(), before);

    // The programs' own fds are their only references left: no link holds them.
    auto deadline = std::chrono::steady_clock::now() + 10s;
    std::vector<LinkIds> remaining;
    do {
        remaining.clear();
        for (const LinkIds &link : all_links())
            if (our_programs.count(link.prog_id))
                remaining.push_back(link);
    } while (!remaining.empty() && std::chrono::steady_clock::now() < deadline &&
             (std::this_thread::sleep_for(10ms), true));
    EXPECT_TRUE(remaining.empty()) << remaining.size() << " links still hold our programs";
    EXPECT_EQ(uprobe_events(*tracefs).find(target->path), std::string::npos);

    // Detaching twice is harmless.
    EXPECT_EQ(set.detach_all().attachments, 0u);
}

} // namespace
} // namespace dtx::trace
