// Loads bench/reference/count_kernel.bpf.c's object with libbpf, attaches one
// of its programs to the entry of a kernel function, runs a command (as `dtx
// -c` and `bpftrace -c` do), then prints how many calls of the function the
// program counted, in every process: "events: N".
//
//   dtx-bench-reference-count-kernel fentry|kprobe FUNCTION COMMAND [ARGS...]
//   dtx-bench-reference-count-kernel kprobes GLOB MARK
//
// fentry: a BPF trampoline (bpf_program__set_attach_target before load, then
// a tracing link); kprobe: libbpf's bpf_program__attach_kprobe_opts, a
// perf-event kprobe (PMU kprobe, its fd closed at exit).
// kprobes (bench/kernel-attach): the kprobe program attached, one perf-event
// kprobe at a time, to every function of the kernel image that
// available_filter_functions lists and GLOB matches (as bpftrace's
// kprobe:GLOB does; ".part." clones left out), then "attached N kprobes" on
// stderr and the line MARK on stdout, flushed; then every kprobe is detached,
// one at a time, and it exits: what attaching and detaching those kprobes
// costs a careful libbpf program.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <fnmatch.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "reference.h"

namespace {

// The functions of the kernel image (not of modules) that ftrace can trace
// whose names match `glob`.
std::set<std::string> traceable_functions(const char *glob) {
    std::set<std::string> out;
    for (const char *path : {"/sys/kernel/tracing/available_filter_functions",
                             "/sys/kernel/debug/tracing/available_filter_functions"}) {
        std::ifstream functions(path);
        if (!functions)
            continue;
        std::string line;
        while (std::getline(functions, line)) {
            if (line.find(' ') != std::string::npos || line.find(".part.") != std::string::npos)
                continue; // "name [module]", or a clone kprobes cannot take
            if (fnmatch(glob, line.c_str(), 0) == 0)
                out.insert(line);
        }
        break;
    }
    return out;
}

// The kprobes mode: attach, say so, detach.
int attach_kprobes(bpf_object *object, bpf_program *program, const char *glob, const char *mark) {
    std::set<std::string> functions = traceable_functions(glob);
    if (functions.empty()) {
        std::fprintf(stderr, "no traceable kernel function matches %s\n", glob);
        return 1;
    }
    if (bpf_object__load(object) != 0) {
        std::fprintf(stderr, "loading %s: %s\n", DTX_BENCH_KERNEL_OBJECT, std::strerror(errno));
        return 1;
    }
    std::vector<bpf_link *> links;
    for (const std::string &function : functions) {
        bpf_link *link = bpf_program__attach_kprobe_opts(program, function.c_str(), nullptr);
        if (!link) {
            std::fprintf(stderr, "attaching a kprobe to %s: %s\n", function.c_str(),
                         std::strerror(errno));
            for (bpf_link *attached : links)
                bpf_link__destroy(attached);
            return 1;
        }
        links.push_back(link);
    }
    std::fprintf(stderr, "attached %zu kprobes\n", links.size());
    std::printf("%s\n", mark);
    std::fflush(stdout);
    for (bpf_link *link : links)
        bpf_link__destroy(link);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc >= 4 ? argv[1] : "";
    if ((mode != "fentry" && mode != "kprobe" && mode != "kprobes") ||
        (mode == "kprobes" && argc != 4)) {
        std::fprintf(stderr,
                     "usage: %s fentry|kprobe FUNCTION COMMAND [ARGS...]\n"
                     "       %s kprobes GLOB MARK\n",
                     argv[0], argv[0]);
        return 2;
    }
    const char *function = argv[2];
    bpf_object *object = bpf_object__open_file(DTX_BENCH_KERNEL_OBJECT, nullptr);
    if (!object) {
        std::fprintf(stderr, "%s: %s\n", DTX_BENCH_KERNEL_OBJECT, std::strerror(errno));
        return 1;
    }
    ObjectCloser closer{object};
    std::string wanted = mode == "kprobes" ? "count_kprobe" : "count_" + mode;
    bpf_program *program = load_only(object, wanted);
    if (mode == "kprobes")
        return attach_kprobes(object, program, function, argv[3]);
    if (mode == "fentry") {
        if (int e = bpf_program__set_attach_target(program, 0, function); e != 0) {
            std::fprintf(stderr, "fentry target %s: %s\n", function, std::strerror(-e));
            return 1;
        }
    }
    if (bpf_object__load(object) != 0) {
        std::fprintf(stderr, "loading %s: %s\n", DTX_BENCH_KERNEL_OBJECT, std::strerror(errno));
        return 1;
    }
    LinkDestroyer link;
    if (mode == "fentry")
        link.link = bpf_program__attach_trace(program);
    else
        link.link = bpf_program__attach_kprobe_opts(program, function, nullptr);
    if (!link.link) {
        std::fprintf(stderr, "attaching %s to %s: %s\n", wanted.c_str(), function,
                     std::strerror(errno));
        return 1;
    }

    int status = run_command(argv + 3);

    std::optional<uint64_t> total = sum_per_cpu_counter(object, "events");
    if (!total)
        return 1;
    std::printf("events: %llu\n", static_cast<unsigned long long>(*total));
    return status;
}
