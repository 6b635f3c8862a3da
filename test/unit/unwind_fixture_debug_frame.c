/* Part of dtx-unwind-fixture (see unwind_fixture.c), built with
 * -fno-asynchronous-unwind-tables -fno-unwind-tables -g: gcc puts this
 * file's CFI in .debug_frame, not .eh_frame. */
int unwind_leaf(int n);

__attribute__((noinline)) int unwind_debug_frame(int n) {
    return unwind_leaf(n) + unwind_leaf(n + 1);
}
