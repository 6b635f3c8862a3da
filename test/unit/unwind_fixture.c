/* dtx-unwind-fixture: functions whose call-frame information
 * test/unit/unwind_table_test.cpp checks, in the frame layouts an unwinder
 * meets. Built non-PIE (file offsets differ from addresses), -O2
 * -fomit-frame-pointer -fasynchronous-unwind-tables (test/CMakeLists.txt),
 * except for the two functions in files of their own:
 *   unwind_leaf          no frame at all: CFA = rsp + 8 throughout, a few
 *                        bytes long, so alignment padding (no FDE) follows it
 *   unwind_large_frame   a local array over 32 KiB: CFA = rsp + more than 32768
 *   unwind_alloca        alloca() makes gcc keep a frame pointer: CFA = rbp + 16
 *   unwind_frame_pointer -fno-omit-frame-pointer (unwind_fixture_frame_pointer.c)
 *   unwind_debug_frame   CFI in .debug_frame only (unwind_fixture_debug_frame.c)
 * Running it calls each once and exits 0.
 */
#include <stdlib.h>
#include <string.h>

int unwind_frame_pointer(int n);
int unwind_debug_frame(int n);

__attribute__((noinline)) int unwind_leaf(int n) {
    return n + 1;
}

__attribute__((noinline)) int unwind_large_frame(int n) {
    volatile char buffer[40000];
    for (int i = 0; i < n; ++i)
        buffer[i * 1000] = (char)i;
    return buffer[(n / 2) * 1000];
}

__attribute__((noinline)) int unwind_alloca(int n) {
    char *buffer = __builtin_alloca((size_t)n);
    memset(buffer, 1, (size_t)n);
    return buffer[n - 1] + unwind_leaf(n);
}

int main(int argc, char **argv) {
    (void)argv;
    int n = argc + 3;
    int sum = unwind_leaf(n) + unwind_large_frame(n) + unwind_alloca(n) + unwind_frame_pointer(n) +
              unwind_debug_frame(n);
    return sum > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
