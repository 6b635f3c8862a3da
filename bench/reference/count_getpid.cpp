// Loads bench/reference/count_getpid.bpf.c's object with libbpf, attaches one
// of its programs, runs a command (as `dtx -c` and `bpftrace -c` do), then
// prints how many getpid calls the program counted: "getpid calls: N".
//
//   dtx-bench-reference-count tracepoint|raw_tp COMMAND [ARGS...]
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
    if (mode != "tracepoint" && mode != "raw_tp") {
        std::fprintf(stderr, "usage: %s tracepoint|raw_tp COMMAND [ARGS...]\n", argv[0]);
        return 2;
    }
    bpf_object *object = bpf_object__open_file(DTX_BENCH_REFERENCE_OBJECT, nullptr);
    if (!object) {
        std::fprintf(stderr, "%s: %s\n", DTX_BENCH_REFERENCE_OBJECT, std::strerror(errno));
        return 1;
    }
    ObjectCloser closer{object};
    std::string wanted = "count_getpid_" + mode;
    bpf_program *program = load_only(object, wanted);
    if (bpf_object__load(object) != 0) {
        std::fprintf(stderr, "loading %s: %s\n", DTX_BENCH_REFERENCE_OBJECT, std::strerror(errno));
        return 1;
    }
    bpf_link *link = bpf_program__attach(program);
    if (!link) {
        std::fprintf(stderr, "attaching %s: %s\n", wanted.c_str(), std::strerror(errno));
        return 1;
    }

    int status = run_command(argv + 2);

    std::optional<uint64_t> total = sum_per_cpu_counter(object, "getpid_calls");
    if (!total)
        return 1;
    std::printf("getpid calls: %llu\n", static_cast<unsigned long long>(*total));
    bpf_link__destroy(link);
    return status;
}
