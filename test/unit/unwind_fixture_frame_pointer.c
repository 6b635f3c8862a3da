/* Part of dtx-unwind-fixture (see unwind_fixture.c), built with
 * -fno-omit-frame-pointer: push rbp (CFA = rsp + 16, rbp at CFA - 16), then
 * mov rsp, rbp (CFA = rbp + 16). Also built alone without any CFI, as the
 * library dtx-unwind-fixture-nocfi. */
int unwind_leaf(int n);

__attribute__((noinline)) int unwind_frame_pointer(int n) {
    return unwind_leaf(n) * 2;
}
