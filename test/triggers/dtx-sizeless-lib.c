/* libdtx-sizeless-lib.so: function symbols without size next to functions no
 * symbol of .dynsym names, for test/unit/elf_file_test.cpp. The test reads
 * the library stripped to .dynsym (libdtx-sizeless-lib-stripped.so), where
 * only the exported functions are named, and as built, for the addresses of
 * the local ones. In this order in .text, in one block of assembly so that
 * the compiler cannot reorder them:
 *
 *   dtx_sizeless_with_cfi      exported, no size; an FDE of its own, then
 *                              padding that no function covers
 *   dtx_local_after_cfi        local, sized, an FDE
 *   dtx_sizeless_without_cfi   exported, no size, no FDE (as some hand-written
 *                              assembly is)
 *   dtx_local_after_nocfi      local, sized, an FDE
 *   dtx_sized_exported         exported, sized, an FDE
 *   dtx_local_after_sized      local, sized, an FDE
 *
 * Stripped, an address in a local function must not be named after the
 * exported function below it: the sized one ends at its size, the sizeless
 * ones where .eh_frame says their function ends or the next begins. */
__asm__(".text\n"
        ".globl dtx_sizeless_with_cfi\n"
        ".type dtx_sizeless_with_cfi, @function\n"
        "dtx_sizeless_with_cfi:\n"
        ".cfi_startproc\n"
        "  xor %eax, %eax\n"
        "  ret\n"
        ".cfi_endproc\n"
        /* Padding that no function covers: its FDE ends before. */
        ".p2align 4\n"
        ".type dtx_local_after_cfi, @function\n"
        "dtx_local_after_cfi:\n"
        ".cfi_startproc\n"
        "  mov $1, %eax\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size dtx_local_after_cfi, . - dtx_local_after_cfi\n"
        ".globl dtx_sizeless_without_cfi\n"
        ".type dtx_sizeless_without_cfi, @function\n"
        "dtx_sizeless_without_cfi:\n"
        "  mov $2, %eax\n"
        "  ret\n"
        ".type dtx_local_after_nocfi, @function\n"
        "dtx_local_after_nocfi:\n"
        ".cfi_startproc\n"
        "  mov $3, %eax\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size dtx_local_after_nocfi, . - dtx_local_after_nocfi\n"
        ".globl dtx_sized_exported\n"
        ".type dtx_sized_exported, @function\n"
        "dtx_sized_exported:\n"
        ".cfi_startproc\n"
        "  mov $4, %eax\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size dtx_sized_exported, . - dtx_sized_exported\n"
        ".type dtx_local_after_sized, @function\n"
        "dtx_local_after_sized:\n"
        ".cfi_startproc\n"
        "  mov $5, %eax\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size dtx_local_after_sized, . - dtx_local_after_sized\n");
