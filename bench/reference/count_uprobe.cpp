// Loads bench/reference/count_uprobe.bpf.c's object with libbpf and runs a
// command whose own function or USDT probe it counts, as `dtx -c` does: the
// command is forked and held before exec, one program is attached to the
// command's file for its pid only (one perf-event uprobe per site, libbpf's
// usual way), then the command execs; at its exit the count is printed:
// "events: N".
//
//   dtx-bench-reference-count-uprobe func|usdt COMMAND [ARGS...]
//
// func counts calls of dtx_bench_target, usdt firings of dtxbench:tick.
// COMMAND is a path: its file is the one probed.
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "reference.h"

int main(int argc, char **argv) {
    std::string mode = argc >= 3 ? argv[1] : "";
    if ((mode != "func" && mode != "usdt") || !std::strchr(argv[2], '/')) {
        std::fprintf(stderr, "usage: %s func|usdt COMMAND-PATH [ARGS...]\n", argv[0]);
        return 2;
    }
    bpf_object *object = bpf_object__open_file(DTX_BENCH_UPROBE_OBJECT, nullptr);
    if (!object) {
        std::fprintf(stderr, "%s: %s\n", DTX_BENCH_UPROBE_OBJECT, std::strerror(errno));
        return 1;
    }
    ObjectCloser closer{object};
    std::string wanted = mode == "func" ? "count_uprobe" : "count_usdt";
    bpf_program *program = load_only(object, wanted);
    if (bpf_object__load(object) != 0) {
        std::fprintf(stderr, "loading %s: %s\n", DTX_BENCH_UPROBE_OBJECT, std::strerror(errno));
        return 1;
    }

    HeldCommand command;
    if (!command.start(argv + 2)) {
        std::fprintf(stderr, "cannot start %s: %s\n", argv[2], std::strerror(errno));
        return 1;
    }
    LinkDestroyer link;
    if (mode == "func") {
        LIBBPF_OPTS(bpf_uprobe_opts, options, .func_name = "dtx_bench_target");
        link.link = bpf_program__attach_uprobe_opts(program, command.pid, argv[2], 0, &options);
    } else {
        link.link =
            bpf_program__attach_usdt(program, command.pid, argv[2], "dtxbench", "tick", nullptr);
    }
    if (!link.link) {
        std::fprintf(stderr, "attaching %s to %s: %s\n", wanted.c_str(), argv[2],
                     std::strerror(errno));
        return 1;
    }

    int status = command.run();

    std::optional<uint64_t> total = sum_per_cpu_counter(object, "events");
    if (!total)
        return 1;
    std::printf("events: %llu\n", static_cast<unsigned long long>(*total));
    return status;
}
