// Loads bench/reference/count_ustack.bpf.c's object with libbpf and runs a
// command whose getpid calls it counts, as `dtx -c` does: the command is
// forked and held before exec, its pid is written into the program's
// read-only data before load (the filter), the program is attached, then the
// command execs. At its exit it prints what it counted:
//   stack  "events: N" (the counts of every stack, summed), "stacks: K" (the
//          keys) and "deepest stack: F frames"
//   base   "events: N"
//
//   dtx-bench-reference-count-ustack stack|base COMMAND-PATH [ARGS...]
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "reference.h"

namespace {

constexpr size_t kMaxFrames = 127; // count_ustack.bpf.c's MAX_FRAMES

// Sets the object's `target_tgid` (in its .rodata map) to `tgid`; false if the
// object has no such map.
bool set_target(bpf_object *object, pid_t tgid) {
    bpf_map *map = nullptr;
    bpf_object__for_each_map(map, object) {
        std::string name = bpf_map__name(map);
        if (!name.ends_with(".rodata"))
            continue;
        size_t size = 0;
        const void *initial = bpf_map__initial_value(map, &size);
        if (!initial || size < sizeof(uint32_t))
            return false;
        std::vector<char> data(static_cast<const char *>(initial),
                               static_cast<const char *>(initial) + size);
        uint32_t value = static_cast<uint32_t>(tgid);
        std::memcpy(data.data(), &value, sizeof(value)); // its only variable
        return bpf_map__set_initial_value(map, data.data(), data.size()) == 0;
    }
    return false;
}

struct StackCounts {
    uint64_t events = 0;
    uint64_t stacks = 0;
    size_t deepest = 0; // frames
};

// Walks the stacks map; nullopt (after saying why) if it cannot be read.
std::optional<StackCounts> read_stacks(bpf_object *object) {
    bpf_map *map = bpf_object__find_map_by_name(object, "stacks");
    if (!map) {
        std::fprintf(stderr, "the object has no map 'stacks'\n");
        return std::nullopt;
    }
    using Stack = std::array<uint64_t, kMaxFrames>;
    StackCounts out;
    Stack key{}, next{};
    const Stack *previous = nullptr;
    while (bpf_map__get_next_key(map, previous, &next, sizeof(next)) == 0) {
        uint64_t count = 0;
        if (bpf_map__lookup_elem(map, &next, sizeof(next), &count, sizeof(count), 0) != 0) {
            std::fprintf(stderr, "reading stacks: %s\n", std::strerror(errno));
            return std::nullopt;
        }
        out.events += count;
        out.stacks++;
        size_t frames = size_t(std::find(next.begin(), next.end(), 0) - next.begin());
        out.deepest = std::max(out.deepest, frames);
        key = next;
        previous = &key;
    }
    return out;
}

} // namespace

int main(int argc, char **argv) {
    std::string mode = argc >= 3 ? argv[1] : "";
    if ((mode != "stack" && mode != "base") || !std::strchr(argv[2], '/')) {
        std::fprintf(stderr, "usage: %s stack|base COMMAND-PATH [ARGS...]\n", argv[0]);
        return 2;
    }
    bpf_object *object = bpf_object__open_file(DTX_BENCH_USTACK_OBJECT, nullptr);
    if (!object) {
        std::fprintf(stderr, "%s: %s\n", DTX_BENCH_USTACK_OBJECT, std::strerror(errno));
        return 1;
    }
    ObjectCloser closer{object};
    std::string wanted = mode == "stack" ? "count_ustack" : "count_base";
    bpf_program *program = load_only(object, wanted);

    HeldCommand command;
    if (!command.start(argv + 2)) {
        std::fprintf(stderr, "cannot start %s: %s\n", argv[2], std::strerror(errno));
        return 1;
    }
    if (!set_target(object, command.pid)) {
        std::fprintf(stderr, "%s: no read-only data to hold the target pid\n",
                     DTX_BENCH_USTACK_OBJECT);
        return 1;
    }
    if (bpf_object__load(object) != 0) {
        std::fprintf(stderr, "loading %s: %s\n", DTX_BENCH_USTACK_OBJECT, std::strerror(errno));
        return 1;
    }
    LinkDestroyer link{bpf_program__attach(program)};
    if (!link.link) {
        std::fprintf(stderr, "attaching %s: %s\n", wanted.c_str(), std::strerror(errno));
        return 1;
    }

    int status = command.run();

    if (mode == "base") {
        std::optional<uint64_t> total = sum_per_cpu_counter(object, "events");
        if (!total)
            return 1;
        std::printf("events: %llu\n", static_cast<unsigned long long>(*total));
        return status;
    }
    std::optional<StackCounts> counts = read_stacks(object);
    if (!counts)
        return 1;
    std::printf("events: %llu\nstacks: %llu\ndeepest stack: %zu frames\n",
                static_cast<unsigned long long>(counts->events),
                static_cast<unsigned long long>(counts->stacks), counts->deepest);
    return status;
}
