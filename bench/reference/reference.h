// What the hand-written reference loaders share: owning libbpf's objects and
// links, choosing the one program of an object to load, running a command to
// its end or holding it before exec (to attach for its pid alone), and reading
// their one counter (slot 0 of a per-CPU array, summed).
#pragma once

#include <bpf/libbpf.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

// The sum over CPUs of `map_name`'s slot 0; nullopt (after saying why on
// stderr) when it cannot be read.
inline std::optional<uint64_t> sum_per_cpu_counter(bpf_object *object, const char *map_name) {
    bpf_map *map = bpf_object__find_map_by_name(object, map_name);
    int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0) {
        std::fprintf(stderr, "cannot count the possible CPUs: %s\n", std::strerror(-cpus));
        return std::nullopt;
    }
    std::vector<uint64_t> per_cpu(static_cast<size_t>(cpus));
    uint32_t key = 0;
    if (!map || bpf_map__lookup_elem(map, &key, sizeof(key), per_cpu.data(),
                                     per_cpu.size() * sizeof(uint64_t), 0) != 0) {
        std::fprintf(stderr, "reading %s: %s\n", map_name, std::strerror(errno));
        return std::nullopt;
    }
    uint64_t total = 0;
    for (uint64_t n : per_cpu)
        total += n;
    return total;
}

struct ObjectCloser {
    bpf_object *object;
    ~ObjectCloser() { bpf_object__close(object); }
};

struct LinkDestroyer {
    bpf_link *link = nullptr;
    ~LinkDestroyer() { bpf_link__destroy(link); }
};

// Program `name` of `object`, made the only one bpf_object__load() loads;
// null if the object has none of that name.
inline bpf_program *load_only(bpf_object *object, const std::string &name) {
    bpf_program *program = nullptr;
    bpf_program *each = nullptr;
    bpf_object__for_each_program(each, object) {
        bool wanted = name == bpf_program__name(each);
        bpf_program__set_autoload(each, wanted);
        if (wanted)
            program = each;
    }
    return program;
}

// Runs argv to its end; its exit status (1 if it did not exit).
inline int run_command(char **argv) {
    pid_t child = fork();
    if (child == 0) {
        execvp(argv[0], argv);
        std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
        _exit(127);
    }
    if (child < 0) {
        std::fprintf(stderr, "fork: %s\n", std::strerror(errno));
        return 1;
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// A command forked and waiting, before exec, for a byte on a pipe: its pid is
// known before it runs, so that the probes can be attached for it alone.
struct HeldCommand {
    pid_t pid = -1;
    int release_fd = -1;

    bool start(char **argv) {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0)
            return false;
        pid = fork();
        if (pid == 0) {
            close(fds[1]);
            char byte;
            if (read(fds[0], &byte, 1) != 1) // the loader gave up
                _exit(127);
            execv(argv[0], argv);
            std::fprintf(stderr, "cannot run %s: %s\n", argv[0], std::strerror(errno));
            _exit(127);
        }
        close(fds[0]);
        release_fd = fds[1];
        return pid > 0;
    }

    // Lets the command exec and waits for its exit; its exit status.
    int run() {
        char byte = 1;
        if (write(release_fd, &byte, 1) != 1)
            std::fprintf(stderr, "cannot release the command: %s\n", std::strerror(errno));
        close(release_fd);
        release_fd = -1;
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }

    // A command never released exits on EOF; reap it.
    ~HeldCommand() {
        if (release_fd < 0)
            return;
        close(release_fd);
        waitpid(pid, nullptr, 0);
    }
};
