// Measures what attaching and detaching many perf-event attachments costs:
// one trivial program attached to every syscalls:sys_enter_* tracepoint (or,
// with --uprobes N, to N uprobes), then AttachmentSet::detach_all() with each
// thread count asked for. Prints min and median over --runs runs. Needs root.
//
//   attach_detach [--runs 3] [--threads 1,2,4,8,16] [--uprobes N]
#include "libtrace/attach.h"
#include "libtrace/tracefs.h"

#include <linux/bpf.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using dtx::Result;
using dtx::trace::AttachmentSet;
using dtx::trace::UniqueFd;

namespace {

extern "C" __attribute__((noinline, used)) int dtx_bench_uprobe_target(int x) {
    asm volatile("" ::: "memory");
    return x + 1;
}

UniqueFd load_return_zero(bpf_prog_type type) {
    const bpf_insn return_zero[] = {
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
        {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
    };
    bpf_attr load{};
    load.prog_type = type;
    load.insns = reinterpret_cast<uintptr_t>(return_zero);
    load.insn_cnt = std::size(return_zero);
    load.license = reinterpret_cast<uintptr_t>("GPL");
    return UniqueFd(static_cast<int>(syscall(__NR_bpf, BPF_PROG_LOAD, &load, sizeof(load))));
}

// The file and file offset of dtx_bench_uprobe_target, from /proc/self/maps.
bool locate_uprobe_target(std::string &path, uint64_t &file_offset) {
    auto address = reinterpret_cast<uintptr_t>(dtx_bench_uprobe_target);
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        std::istringstream fields(line);
        std::string range, perms, offset, device, inode;
        fields >> range >> perms >> offset >> device >> inode >> path;
        uintptr_t start = std::stoull(range.substr(0, range.find('-')), nullptr, 16);
        uintptr_t end = std::stoull(range.substr(range.find('-') + 1), nullptr, 16);
        if (address >= start && address < end) {
            file_offset = address - start + std::stoull(offset, nullptr, 16);
            return true;
        }
    }
    return false;
}

double milliseconds(std::chrono::nanoseconds elapsed) {
    return std::chrono::duration<double, std::milli>(elapsed).count();
}

struct Summary {
    double min = 0;
    double median = 0;
};

Summary summarize(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return {samples.front(), samples[samples.size() / 2]};
}

std::vector<unsigned> parse_thread_counts(const char *list) {
    std::vector<unsigned> counts;
    std::istringstream text(list);
    std::string item;
    while (std::getline(text, item, ','))
        counts.push_back(static_cast<unsigned>(std::max(1, std::atoi(item.c_str()))));
    return counts;
}

} // namespace

int main(int argc, char **argv) {
    int runs = 3;
    int uprobes = 0;
    std::vector<unsigned> thread_counts = {1, 2, 4, 8, 16};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--runs") == 0)
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--threads") == 0)
            thread_counts = parse_thread_counts(argv[i + 1]);
        else if (std::strcmp(argv[i], "--uprobes") == 0)
            uprobes = std::max(0, std::atoi(argv[i + 1]));
        else {
            std::fprintf(stderr, "usage: %s [--runs N] [--threads 1,2,4] [--uprobes N]\n", argv[0]);
            return 2;
        }
    }

    UniqueFd program = load_return_zero(uprobes ? BPF_PROG_TYPE_KPROBE : BPF_PROG_TYPE_TRACEPOINT);
    if (!program) {
        std::fprintf(stderr, "BPF_PROG_LOAD: %s\n", std::strerror(errno));
        return 1;
    }
    std::vector<std::string> events;
    std::string uprobe_path;
    uint64_t uprobe_offset = 0;
    if (uprobes) {
        if (!locate_uprobe_target(uprobe_path, uprobe_offset)) {
            std::fprintf(stderr, "cannot find dtx_bench_uprobe_target in /proc/self/maps\n");
            return 1;
        }
    } else {
        Result<std::string> tracefs = dtx::trace::find_or_mount_tracefs();
        if (!tracefs) {
            std::fprintf(stderr, "%s\n", tracefs.error().message.c_str());
            return 1;
        }
        Result<std::vector<std::string>> all = dtx::trace::list_tracepoints(*tracefs, "syscalls");
        if (!all) {
            std::fprintf(stderr, "%s\n", all.error().message.c_str());
            return 1;
        }
        for (std::string &event : *all)
            if (event.starts_with("sys_enter_"))
                events.push_back(std::move(event));
    }

    std::printf("%zu %s, %d runs each\n", uprobes ? size_t(uprobes) : events.size(),
                uprobes ? "uprobes (one perf event each)" : "syscalls:sys_enter_* tracepoints",
                runs);
    std::printf("%8s %14s %14s %14s %14s\n", "threads", "attach min", "attach median", "detach min",
                "detach median");
    for (unsigned threads : thread_counts) {
        std::vector<double> attach_ms, detach_ms;
        for (int run = 0; run < runs; ++run) {
            AttachmentSet set;
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < uprobes; ++i) {
                auto attached = set.attach_uprobe(program.get(), uprobe_path, uprobe_offset, false);
                if (!attached) {
                    std::fprintf(stderr, "%s\n", attached.error().message.c_str());
                    return 1;
                }
            }
            for (const std::string &event : events) {
                auto attached = set.attach_tracepoint(program.get(), "syscalls", event);
                if (!attached) {
                    std::fprintf(stderr, "%s\n", attached.error().message.c_str());
                    return 1;
                }
            }
            attach_ms.push_back(milliseconds(std::chrono::steady_clock::now() - start));
            detach_ms.push_back(milliseconds(set.detach_all(threads).elapsed));
        }
        Summary attach = summarize(attach_ms), detach = summarize(detach_ms);
        std::printf("%8u %11.1f ms %11.1f ms %11.1f ms %11.1f ms\n", threads, attach.min,
                    attach.median, detach.min, detach.median);
        std::fflush(stdout);
    }
    return 0;
}
