// The workload of bench/per-event-stable: two processes on one CPU passing a
// byte back and forth through pipes N times, timed; prints "ns/switch: X"
// (each pass is two context switches). Then it forks and execs /bin/true M
// times and prints "us/exec: Y".
//
//   dtx-bench-switch-loop N CPU M
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool pin(int cpu) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(cpu, &cpus);
    return sched_setaffinity(0, sizeof(cpus), &cpus) == 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: %s PASSES CPU EXECS\n", argv[0]);
        return 2;
    }
    const long passes = std::atol(argv[1]);
    const int cpu = std::atoi(argv[2]);
    const long execs = std::atol(argv[3]);
    if (passes <= 0 || execs < 0 || !pin(cpu)) {
        std::fprintf(stderr, "%s: bad arguments or CPU %d: %s\n", argv[0], cpu,
                     std::strerror(errno));
        return 2;
    }
    int there[2], back[2];
    if (pipe(there) != 0 || pipe(back) != 0)
        return 1;
    const pid_t echo = fork();
    if (echo == 0) {     // on the same CPU: every pass switches to it and back
        close(there[1]); // so that the parent's close ends the loop
        close(back[0]);
        char byte;
        while (read(there[0], &byte, 1) == 1 && write(back[1], &byte, 1) == 1) {
        }
        _exit(0);
    }
    close(there[0]);
    close(back[1]);
    char byte = 'x';
    const auto start = std::chrono::steady_clock::now();
    for (long i = 0; i < passes; i++)
        if (write(there[1], &byte, 1) != 1 || read(back[0], &byte, 1) != 1)
            return 1;
    const auto end = std::chrono::steady_clock::now();
    close(there[1]);
    waitpid(echo, nullptr, 0);
    std::printf("ns/switch: %.1f\n",
                std::chrono::duration<double, std::nano>(end - start).count() / (2.0 * passes));

    const auto exec_start = std::chrono::steady_clock::now();
    for (long i = 0; i < execs; i++) {
        const pid_t child = fork();
        if (child == 0) {
            char path[] = "/bin/true";
            execl(path, "true", static_cast<char *>(nullptr));
            _exit(127);
        }
        waitpid(child, nullptr, 0);
    }
    const auto exec_end = std::chrono::steady_clock::now();
    if (execs > 0)
        std::printf("us/exec: %.1f\n",
                    std::chrono::duration<double, std::micro>(exec_end - exec_start).count() /
                        double(execs));
    std::fflush(stdout);
    // Long enough for the benchmark's last look at the programs' run counts.
    usleep(600 * 1000);
    return 0;
}
