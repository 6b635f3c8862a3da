/* dtx-trigger: makes exactly known system calls and events for dtx's runtime
 * tests and benchmarks. Usage: dtx-trigger COMMAND [ARGS] [COMMAND [ARGS]]...
 * runs each command in turn (see kCommands, or run it without arguments).
 *
 * It is linked statically and without sanitizers, so that between exec and
 * its first command it makes only the few calls of the C library's start-up
 * (no dynamic loader opening files) and nothing it does is the sanitizer's.
 * It writes nothing on stdout, which a test compares with its expected output,
 * but for copyout-target, which prints what dtx wrote into its buffer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The descriptor the write command writes to, so tests know arg0. */
enum { kWriteFd = 100 };

static const char kMissingPath[] = "/nonexistent/dtx-trigger";

#define DTX_STRINGIFY_TEXT(x) #x
#define DTX_STRINGIFY(x) DTX_STRINGIFY_TEXT(x)

static void fail(const char *what) {
    fprintf(stderr, "dtx-trigger: %s: %s\n", what, strerror(errno));
    exit(1);
}

/* Raw system calls, so that each command makes exactly the calls it names
 * (the C library would make openat for open, clock_nanosleep for nanosleep).
 * The path is passed from the stack, whose page is resident when an entry
 * probe copies it: a probe cannot fault a page in, and a string constant's
 * page may not have been touched yet. */
static long open_at(const char *path, int flags) {
    char resident[4096];
    snprintf(resident, sizeof(resident), "%s", path);
    return syscall(SYS_openat, AT_FDCWD, resident, flags);
}

static void sleep_ns(long long ns) {
    struct timespec interval = {.tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000};
    while (syscall(SYS_nanosleep, &interval, &interval) != 0)
        if (errno != EINTR)
            fail("nanosleep");
}

static int run_open(char **args, long n) {
    for (long i = 0; i < n; i++) {
        long fd = open_at(args[0], O_RDONLY);
        if (fd < 0)
            fail(args[0]);
        syscall(SYS_close, fd);
    }
    return 0;
}

static int run_read(char **args, long n) {
    long fd = open_at(args[0], O_RDONLY);
    if (fd < 0)
        fail(args[0]);
    char buffer[4096];
    for (long i = 0; i < n; i++)
        if (syscall(SYS_pread64, fd, buffer, sizeof(buffer), 0L) < 0)
            fail(args[0]);
    syscall(SYS_close, fd);
    return 0;
}

/* /dev/null as file descriptor kWriteFd, which the write commands write to. */
static void open_write_fd(void) {
    long fd = open_at("/dev/null", O_WRONLY);
    if (fd < 0)
        fail("/dev/null");
    syscall(SYS_dup2, fd, kWriteFd);
    syscall(SYS_close, fd);
}

/* A buffer on the stack (resident and writable, as copyout() needs) that
 * write(100, buffer, 32) to /dev/null passes to the kernel N times: after
 * each, the buffer is printed on stdout up to its NUL, so that a copyout()
 * or copyoutstr() at write's entry shows in the output. */
static int run_copyout_target(char **args, long n) {
    (void)args;
    open_write_fd();
    for (long i = 0; i < n; i++) {
        char buffer[33] = "0123456789abcdefghijklmnopqrstuv";
        if (syscall(SYS_write, kWriteFd, buffer, 32L) < 0)
            fail("write");
        buffer[32] = '\0';
        size_t length = strlen(buffer);
        buffer[length] = '\n';
        if (syscall(SYS_write, 1, buffer, length + 1) < 0)
            fail("write to stdout");
    }
    syscall(SYS_close, kWriteFd);
    return 0;
}

static int run_fail_open(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++)
        if (open_at(kMissingPath, O_RDONLY) >= 0 || errno != ENOENT)
            fail("openat of a missing path did not fail with ENOENT");
    return 0;
}

static int run_write(char **args, long n) {
    (void)args;
    open_write_fd();
    for (long i = 0; i < n; i++)
        if (syscall(SYS_write, kWriteFd, "x", 1) < 0)
            fail("write");
    syscall(SYS_close, kWriteFd);
    return 0;
}

/* Runs `path` (copied to the stack, resident when proc:::exec reads it) in
 * a child, and returns the child's wait status. */
static int run_child_exec(const char *path) {
    pid_t child = fork();
    if (child < 0)
        fail("fork");
    if (child == 0) {
        char resident[4096];
        snprintf(resident, sizeof(resident), "%s", path);
        char *argv[] = {strrchr(resident, '/') + 1, NULL};
        syscall(SYS_execve, resident, argv, environ);
        _exit(127);
    }
    int status = 0;
    if (waitpid(child, &status, 0) < 0)
        fail("waitpid");
    return status;
}

static int run_fork_exec(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++) {
        int status = run_child_exec("/bin/true");
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            fprintf(stderr, "dtx-trigger: /bin/true failed (status %d)\n", status);
            exit(1);
        }
    }
    return 0;
}

/* A child that execs a missing path (ENOENT) and exits 127, N times. */
static int run_exec_missing(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++)
        run_child_exec(kMissingPath);
    return 0;
}

/* A child that exits with STATUS, and one killed by SIGKILL. */
static int run_children_exit(char **args, long status) {
    (void)args;
    pid_t exits = fork();
    if (exits == 0)
        _exit((int)status);
    pid_t killed = fork();
    if (killed == 0) {
        kill(getpid(), SIGKILL);
        _exit(0);
    }
    if (exits < 0 || killed < 0 || waitpid(exits, NULL, 0) < 0 || waitpid(killed, NULL, 0) < 0)
        fail("fork");
    return 0;
}

/* N children, one after another, each killed by its own SIGUSR1 (no handler). */
static int run_usr1_children(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++) {
        pid_t child = fork();
        if (child == 0) {
            signal(SIGUSR1, SIG_DFL);
            kill(getpid(), SIGUSR1);
            _exit(0);
        }
        if (child < 0 || waitpid(child, NULL, 0) < 0)
            fail("fork");
    }
    return 0;
}

static void *thread_body(void *unused) {
    (void)unused;
    syscall(SYS_getpid);
    return NULL;
}

/* N threads, one after another, each making one getpid. */
static int run_threads(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, thread_body, NULL) != 0)
            fail("pthread_create");
        pthread_join(thread, NULL);
    }
    return 0;
}

static int run_sleep(char **args, long ms) {
    (void)args;
    sleep_ns(ms * 1000000LL);
    return 0;
}

static int run_getpid(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++)
        syscall(SYS_getpid);
    return 0;
}

/* getpid through three functions in assembly, so that ustack() tests know
 * every frame and its offset whatever the compiler: the stack at the system
 * call is trigger_ustack_inner+0x2c, trigger_ustack_middle+0x9 and
 * trigger_ustack_outer+0x8, nothing more (the outer function ends the
 * frame-pointer chain with a 0 %rbp, and its call-frame information leaves
 * its return address undefined, as _start's does), and uregs[] tests know
 * the argument registers: %rdi 1, %rsi 2, %rdx 3, %r10 4, %r8 5, %r9 6,
 * with %rsp == %rbp. Only caller-saved registers change. */
void trigger_ustack_outer(void);
__asm__(".text\n"
        ".type trigger_ustack_inner, @function\n"
        "trigger_ustack_inner:\n"
        "  .cfi_startproc\n"
        "  push %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  mov %rsp, %rbp\n"
        "  .cfi_def_cfa_register %rbp\n"
        "  mov $1, %edi\n"
        "  mov $2, %esi\n"
        "  mov $3, %edx\n"
        "  mov $4, %r10d\n"
        "  mov $5, %r8d\n"
        "  mov $6, %r9d\n"
        "  mov $" DTX_STRINGIFY(SYS_getpid) ", %eax\n"
        "  syscall\n"
        "  pop %rbp\n"
        "  .cfi_def_cfa %rsp, 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size trigger_ustack_inner, . - trigger_ustack_inner\n"
        ".type trigger_ustack_middle, @function\n"
        "trigger_ustack_middle:\n"
        "  .cfi_startproc\n"
        "  push %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  .cfi_offset %rbp, -16\n"
        "  mov %rsp, %rbp\n"
        "  .cfi_def_cfa_register %rbp\n"
        "  call trigger_ustack_inner\n"
        "  pop %rbp\n"
        "  .cfi_def_cfa %rsp, 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size trigger_ustack_middle, . - trigger_ustack_middle\n"
        ".type trigger_ustack_outer, @function\n"
        "trigger_ustack_outer:\n"
        "  .cfi_startproc\n"
        "  .cfi_undefined %rip\n"
        "  push %rbp\n"
        "  .cfi_def_cfa_offset 16\n"
        "  xor %ebp, %ebp\n"
        "  call trigger_ustack_middle\n"
        "  pop %rbp\n"
        "  .cfi_def_cfa_offset 8\n"
        "  ret\n"
        "  .cfi_endproc\n"
        ".size trigger_ustack_outer, . - trigger_ustack_outer\n");

static int run_ustack(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++)
        trigger_ustack_outer();
    return 0;
}

/* i386's getpid (20) through int $0x80, with known argument registers:
 * %ebx 11, %ecx 22, %edx 33, %esi 44, %edi 55, %ebp 66. A 64-bit process
 * makes a 32-bit system call this way (the kernel marks the thread TS_COMPAT),
 * where the kernel has IA32 emulation; returns the pid, or dies of SIGSEGV
 * where it has not. */
long trigger_int80_getpid(void);
__asm__(".text\n"
        ".type trigger_int80_getpid, @function\n"
        "trigger_int80_getpid:\n"
        "  push %rbx\n"
        "  push %rbp\n"
        "  mov $11, %ebx\n"
        "  mov $22, %ecx\n"
        "  mov $33, %edx\n"
        "  mov $44, %esi\n"
        "  mov $55, %edi\n"
        "  mov $66, %ebp\n"
        "  mov $20, %eax\n"
        "  int $0x80\n"
        "  pop %rbp\n"
        "  pop %rbx\n"
        "  ret\n"
        ".size trigger_int80_getpid, . - trigger_int80_getpid\n");

static int run_int80_getpid(char **args, long n) {
    (void)args;
    const long self = getpid();
    for (long i = 0; i < n; i++)
        if (trigger_int80_getpid() != self)
            fail("int $0x80 getpid");
    return 0;
}

/* SIGUSR1s caught by catch-usr1's handler (raise() tests). */
static volatile sig_atomic_t usr1_caught;

static void count_usr1(int signal) {
    (void)signal;
    usr1_caught++;
}

/* SIGUSR1 counted by count_usr1 from now on. */
static void catch_usr1(void) {
    struct sigaction action = {.sa_handler = count_usr1, .sa_flags = SA_RESTART};
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, NULL) != 0)
        fail("sigaction");
}

static int run_catch_usr1(char **args, long n) {
    (void)args;
    catch_usr1();
    for (long i = 0; i < n; i++)
        syscall(SYS_getpid);
    if (usr1_caught)
        exit(usr1_caught);
    return 0;
}

/* kill(2)s itself SIGUSR1 N times, each caught by a handler. */
static int run_signal_self(char **args, long n) {
    (void)args;
    catch_usr1();
    for (long i = 0; i < n; i++)
        syscall(SYS_kill, getpid(), SIGUSR1);
    return usr1_caught == n ? 0 : 1;
}

static int run_nanosleep(char **args, long n) {
    (void)args;
    for (long i = 0; i < n; i++)
        sleep_ns(1000);
    return 0;
}

/* contend: threads that make the kernel's locks contended. Writers and
 * readers share one pipe (its mutex: lockstat's adaptive probes, and the
 * spinlocks of its wait queues); appenders share one file (its inode's
 * rw_semaphore: rw-block). */
struct Contention {
    int pipe[2];
    int file;
    struct timespec until;
};

static int contention_over(const struct Contention *c) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > c->until.tv_sec ||
           (now.tv_sec == c->until.tv_sec && now.tv_nsec >= c->until.tv_nsec);
}

static void *contend_write(void *arg) {
    struct Contention *c = arg;
    char block[512] = {0};
    while (!contention_over(c))
        for (int i = 0; i < 64; i++)
            if (write(c->pipe[1], block, sizeof(block)) < 0)
                fail("write to the pipe");
    return NULL;
}

static void *contend_read(void *arg) {
    struct Contention *c = arg;
    char block[512];
    while (read(c->pipe[0], block, sizeof(block)) > 0) {
    }
    return NULL;
}

static void *contend_append(void *arg) {
    struct Contention *c = arg;
    static char block[16384];
    while (!contention_over(c)) {
        for (int i = 0; i < 16; i++)
            if (write(c->file, block, sizeof(block)) < 0)
                fail("append to the file");
        if (ftruncate(c->file, 0) < 0)
            fail("ftruncate");
    }
    return NULL;
}

static int run_contend(char **args, long ms) {
    (void)args;
    struct Contention c;
    if (pipe(c.pipe) != 0)
        fail("pipe");
    char path[] = "/tmp/dtx-trigger-contend-XXXXXX";
    c.file = mkstemp(path);
    if (c.file < 0)
        fail("mkstemp");
    unlink(path);
    if (fcntl(c.file, F_SETFL, O_APPEND) != 0)
        fail("fcntl");
    clock_gettime(CLOCK_MONOTONIC, &c.until);
    c.until.tv_sec += ms / 1000;
    c.until.tv_nsec += (ms % 1000) * 1000000L;
    if (c.until.tv_nsec >= 1000000000L) {
        c.until.tv_sec++;
        c.until.tv_nsec -= 1000000000L;
    }
    enum { kEach = 4 };
    pthread_t writers[kEach], readers[kEach], appenders[kEach];
    for (int i = 0; i < kEach; i++)
        if (pthread_create(&writers[i], NULL, contend_write, &c) != 0 ||
            pthread_create(&readers[i], NULL, contend_read, &c) != 0 ||
            pthread_create(&appenders[i], NULL, contend_append, &c) != 0)
            fail("pthread_create");
    for (int i = 0; i < kEach; i++) {
        pthread_join(writers[i], NULL);
        pthread_join(appenders[i], NULL);
    }
    close(c.pipe[1]);
    for (int i = 0; i < kEach; i++)
        pthread_join(readers[i], NULL);
    close(c.pipe[0]);
    close(c.file);
    return 0;
}

struct Command {
    const char *name;
    const char *usage; /* its arguments; the last one is always the number */
    const char *does;
    int paths; /* arguments before the number */
    int (*run)(char **args, long number);
};

static const struct Command kCommands[] = {
    {"open", "PATH N", "openat(PATH, O_RDONLY) and close, N times", 1, run_open},
    {"read", "PATH N", "openat(PATH), pread64 of 4096 bytes at 0 N times, close", 1, run_read},
    {"fail-open", "N", "openat of a missing path (ENOENT), N times", 0, run_fail_open},
    {"write", "N", "write(100, \"x\", 1) to /dev/null, N times", 0, run_write},
    {"copyout-target", "N",
     "write(100, buffer, 32) to /dev/null of a stack buffer holding \"0123...uv\", then the "
     "buffer up to its NUL and a newline on stdout, N times (copyout() tests)",
     0, run_copyout_target},
    {"fork-exec", "N", "fork a child that execs /bin/true and wait for it, N times", 0,
     run_fork_exec},
    {"exec-missing", "N", "fork a child that execs a missing path (ENOENT), N times", 0,
     run_exec_missing},
    {"children-exit", "STATUS", "fork a child that exits STATUS and one killed by SIGKILL", 0,
     run_children_exit},
    {"signal-self", "N", "kill itself SIGUSR1 N times, each caught by a handler", 0,
     run_signal_self},
    {"usr1-children", "N",
     "fork a child that kills itself with SIGUSR1 (no handler: it dies), N times", 0,
     run_usr1_children},
    {"threads", "N", "create and join a thread that calls getpid, N times", 0, run_threads},
    {"sleep", "MS", "one nanosleep of MS milliseconds", 0, run_sleep},
    {"getpid", "N", "getpid, N times in a tight loop", 0, run_getpid},
    {"nanosleep", "N", "nanosleep of 1 microsecond, N times", 0, run_nanosleep},
    {"ustack", "N", "getpid from known frames and registers, N times", 0, run_ustack},
    {"int80-getpid", "N",
     "i386's getpid through int $0x80 with known registers, N times (IA32 emulation)", 0,
     run_int80_getpid},
    {"contend", "MS",
     "for MS milliseconds, 4 threads each write to one pipe, read from it and append to one "
     "file",
     0, run_contend},
    {"catch-usr1", "N",
     "getpid N times, counting the SIGUSR1s a handler catches; then exits with their number "
     "as its status, if any",
     0, run_catch_usr1},
};

static int usage(void) {
    fprintf(stderr, "usage: dtx-trigger COMMAND [ARGS] [COMMAND [ARGS]]...\ncommands:\n");
    for (size_t i = 0; i < sizeof(kCommands) / sizeof(kCommands[0]); i++)
        fprintf(stderr, "  %-10s %-7s %s\n", kCommands[i].name, kCommands[i].usage,
                kCommands[i].does);
    return 2;
}

int main(int argc, char **argv) {
    if (argc < 2)
        return usage();
    for (int at = 1; at < argc;) {
        const struct Command *command = NULL;
        for (size_t i = 0; i < sizeof(kCommands) / sizeof(kCommands[0]); i++)
            if (strcmp(argv[at], kCommands[i].name) == 0)
                command = &kCommands[i];
        if (!command) {
            fprintf(stderr, "dtx-trigger: unknown command '%s'\n", argv[at]);
            return usage();
        }
        int number_at = at + 1 + command->paths;
        if (number_at >= argc) {
            fprintf(stderr, "dtx-trigger: %s needs %s\n", command->name, command->usage);
            return 2;
        }
        char *end = NULL;
        long number = strtol(argv[number_at], &end, 10);
        if (*argv[number_at] == '\0' || *end != '\0' || number < 0) {
            fprintf(stderr, "dtx-trigger: %s: '%s' is not a count\n", command->name,
                    argv[number_at]);
            return 2;
        }
        if (command->run(argv + at + 1, number) != 0)
            return 1;
        at = number_at + 1;
    }
    return 0;
}
