/* dtx-unwind: call chains of known frames, for the tests of ustack()'s
 * unwinding (test/cmd/unwind-tests). Usage: dtx-unwind COMMAND [ARG]
 * [COMMAND [ARG]]... runs each command in turn:
 *
 *   deep N    unwind_leaf(N) at the end of N nested calls of unwind_recurse
 *   lib       unwind_leaf from unwind_callback, which libdtx-unwind-lib.so
 *             calls back: the stack passes into the library and back out
 *   signal    unwind_leaf from unwind_signal_handler, the SIGUSR1 handler,
 *             which the kernel enters when unwind_signal_raise's tgkill
 *             system call (an instruction of its own, not libc's raise())
 *             returns: the stack continues through the C library's signal
 *             trampoline, __restore_rt, to the interrupted function
 *   malloc    malloc(4242) from unwind_allocate, through the PLT
 *   jit       unwind_leaf from code written at run time into an anonymous
 *             executable mapping, as a JIT compiler's: no file holds it, so
 *             the stack ends there (unwind_leaf, then the JIT code's address)
 *   sleep MS  sleeps MS milliseconds, so that a tracer reads the process's
 *             modules while it lives
 *
 * Every command's function is called from main, so that the stack at each
 * call of unwind_leaf and malloc is exactly, innermost first:
 *
 *   deep N   unwind_leaf, unwind_recurse (N times), run_deep, main
 *   lib      unwind_leaf, unwind_callback,
 *            libdtx-unwind-lib.so`unwind_lib_middle (static in the library),
 *            libdtx-unwind-lib.so`unwind_lib_call, unwind_to_lib, run_lib, main
 *   signal   unwind_leaf, unwind_signal_handler, libc.so.6`__restore_rt,
 *            unwind_signal_raise (where the signal interrupted it), run_signal,
 *            main
 *   malloc   libc.so.6`malloc, unwind_allocate, run_malloc, main
 *
 * and then the C library's start: __libc_start_call_main,
 * __libc_start_main, the executable's _start.
 *
 * Built (test/triggers/CMakeLists.txt) with -O2 -fomit-frame-pointer
 * -fasynchronous-unwind-tables, as distributions build their programs, so
 * that only the .eh_frame tables tell where a caller's frame is:
 *   dtx-unwind        PIE
 *   dtx-unwind-nopie  ET_EXEC at fixed addresses
 *   dtx-unwind-fp     PIE with frame pointers, calling the library, which
 *                     has none, and called back from it
 * all with libdtx-unwind-lib.so (no frame pointers). Unsanitized whatever the
 * build. It writes nothing on stdout. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "dtx-unwind.h"

/* malloc's argument in the `malloc` command, which a probe's predicate
 * tells apart from the C library's own calls. */
enum { kMallocSize = 4242 };

/* Results go here so that no call is dead. */
static volatile long sink;
/* The allocated block escapes through it, so that the compiler cannot drop
 * the malloc/free pair. */
static void *volatile escaped;

/* The probe point of every chain but malloc's. */
DTX_UNWIND_FRAME long unwind_leaf(long value) {
    sink = value;
    return value + 1;
}

DTX_UNWIND_FRAME long unwind_recurse(long depth) {
    const long result = depth <= 1 ? unwind_leaf(depth) : unwind_recurse(depth - 1);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result + 1;
}

DTX_UNWIND_FRAME long run_deep(long depth) {
    const long result = unwind_recurse(depth);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return 0;
}

/* Called back by the library's unwind_lib_middle. */
DTX_UNWIND_FRAME long unwind_callback(long value) {
    const long result = unwind_leaf(value);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result + 1;
}

DTX_UNWIND_FRAME long unwind_to_lib(long value) {
    const long result = unwind_lib_call(unwind_callback, value);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result + 1;
}

DTX_UNWIND_FRAME long run_lib(long unused) {
    (void)unused;
    const long result = unwind_to_lib(1);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return 0;
}

DTX_UNWIND_FRAME void unwind_signal_handler(int signal) {
    const long result = unwind_leaf(signal);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
}

/* SIGUSR1 to this thread by a system call instruction of this function, so
 * that the frame the signal interrupts is ours whatever the C library: the
 * kernel delivers the signal as the system call returns, with the
 * interrupted address just after the instruction. */
DTX_UNWIND_FRAME long unwind_signal_raise(void) {
    const long process = getpid();
    const long thread = gettid();
    long result = SYS_tgkill;
    __asm__ volatile("syscall"
                     : "+a"(result)
                     : "D"(process), "S"(thread), "d"((long)SIGUSR1)
                     : "rcx", "r11", "memory");
    sink = result;
    return result;
}

DTX_UNWIND_FRAME long run_signal(long unused) {
    (void)unused;
    struct sigaction action, previous;
    memset(&action, 0, sizeof(action));
    action.sa_handler = unwind_signal_handler;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, &previous) != 0) {
        perror("dtx-unwind: sigaction");
        return 1;
    }
    const long result = unwind_signal_raise();
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    sigaction(SIGUSR1, &previous, NULL);
    return result == 0 ? 0 : 1;
}

DTX_UNWIND_FRAME long unwind_allocate(long size) {
    char *memory = malloc((size_t)size);
    if (!memory)
        return -1;
    memory[0] = 1;
    escaped = memory;
    DTX_UNWIND_AFTER_CALL();
    free(memory);
    return size;
}

DTX_UNWIND_FRAME long run_malloc(long unused) {
    (void)unused;
    const long result = unwind_allocate(kMallocSize);
    sink = result;
    DTX_UNWIND_AFTER_CALL();
    return result == kMallocSize ? 0 : 1;
}

static long run_sleep(long ms) {
    const struct timespec pause = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&pause, NULL);
    return 0;
}

struct Command {
    const char *name;
    int takes_number;
    long (*run)(long number);
};

/* sub $8, %rsp; movabs $unwind_leaf, %rax; call *%rax; add $8, %rsp; ret:
 * unwind_leaf(value) from code no file holds (the argument passes through
 * %rdi untouched). */
static long run_jit(long value) {
    unsigned char code[] = {0x48, 0x83, 0xec, 0x08, 0x48, 0xb8, 0,    0,    0,    0,   0,
                            0,    0,    0,    0xff, 0xd0, 0x48, 0x83, 0xc4, 0x08, 0xc3};
    long (*leaf)(long) = unwind_leaf;
    memcpy(code + 6, &leaf, sizeof(leaf));
    void *page =
        mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return -1;
    memcpy(page, code, sizeof(code));
    long (*jitted)(long) = (long (*)(long))page;
    long result = jitted(value);
    munmap(page, 4096);
    return result;
}

static const struct Command kCommands[] = {
    {"deep", 1, run_deep},     {"lib", 0, run_lib},     {"signal", 0, run_signal},
    {"malloc", 0, run_malloc}, {"sleep", 1, run_sleep}, {"jit", 0, run_jit},
};

static int usage(void) {
    fprintf(stderr, "usage: dtx-unwind COMMAND [ARG] [COMMAND [ARG]]...\n"
                    "commands: deep N, lib, signal, malloc, jit, sleep MS\n");
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
            fprintf(stderr, "dtx-unwind: unknown command '%s'\n", argv[at]);
            return usage();
        }
        long number = 0;
        if (command->takes_number) {
            char *end = NULL;
            if (at + 1 >= argc || (number = strtol(argv[at + 1], &end, 10), *end != '\0') ||
                argv[at + 1][0] == '\0' || number < 1) {
                fprintf(stderr, "dtx-unwind: %s needs a positive number\n", command->name);
                return 2;
            }
        }
        const long failed = command->run(number);
        sink = failed;
        DTX_UNWIND_AFTER_CALL();
        if (failed)
            return 1;
        at += 1 + command->takes_number;
    }
    return 0;
}
