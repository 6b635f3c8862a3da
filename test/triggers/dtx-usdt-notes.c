/* libdtx-usdt-notes.so: hand-written .note.stapsdt notes that no compiler
 * emits, for the unit tests of the note reader (test/unit/usdt_note_test.cpp).
 * Never loaded or run. In order:
 *
 *   1. dtxnotes:moved, recorded as if .stapsdt.base sat 0x100 higher, as
 *      after prelink moved the file: its site (dtxnotes_sites) and semaphore
 *      (dtxnotes_semaphore) read 0x100 too high as well, and the reader
 *      must move them back. Argument 8@%rdi.
 *   2. dtxnotes:bad, whose argument names an unknown register (skipped).
 *   3. Another owner's note (ignored, not a problem).
 *   4. A note whose strings lack their NUL (skipped).
 *   5. A note whose description is too short for the addresses (skipped).
 *   6. A note longer than what is left of the section (ends the reading). */
unsigned short dtxnotes_semaphore __attribute__((section(".probes")));

__asm__(".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n"
        ".weak _.stapsdt.base\n"
        ".hidden _.stapsdt.base\n"
        "_.stapsdt.base: .space 1\n"
        ".size _.stapsdt.base, 1\n"
        ".popsection\n"

        ".text\n"
        ".globl dtxnotes_sites\n"
        ".type dtxnotes_sites, @function\n"
        "dtxnotes_sites:\n"
        ".Ldtxnotes_moved: nop\n"
        ".Ldtxnotes_bad: nop\n"
        "ret\n"
        ".size dtxnotes_sites, . - dtxnotes_sites\n"

        ".pushsection .note.stapsdt, \"\", \"note\"\n"
        ".balign 4\n"
        ".4byte 8, .Lmoved_end - .Lmoved, 3\n"
        ".asciz \"stapsdt\"\n"
        ".Lmoved: .8byte .Ldtxnotes_moved + 0x100, _.stapsdt.base + 0x100\n"
        ".8byte dtxnotes_semaphore + 0x100\n"
        ".asciz \"dtxnotes\"\n"
        ".asciz \"moved\"\n"
        ".asciz \"8@%rdi\"\n"
        ".Lmoved_end: .balign 4\n"

        ".4byte 8, .Lbad_end - .Lbad, 3\n"
        ".asciz \"stapsdt\"\n"
        ".Lbad: .8byte .Ldtxnotes_bad, _.stapsdt.base, 0\n"
        ".asciz \"dtxnotes\"\n"
        ".asciz \"bad\"\n"
        ".asciz \"8@%xyz\"\n"
        ".Lbad_end: .balign 4\n"

        ".4byte 4, 4, 1\n"
        ".asciz \"GNU\"\n"
        ".4byte 0\n"

        ".4byte 8, 32, 3\n"
        ".asciz \"stapsdt\"\n"
        ".8byte .Ldtxnotes_bad, _.stapsdt.base, 0\n"
        ".ascii \"dtxnotes\"\n"

        ".4byte 8, 8, 3\n"
        ".asciz \"stapsdt\"\n"
        ".8byte 0\n"

        ".4byte 8, 100, 3\n"
        ".asciz \"stapsdt\"\n"
        ".popsection\n");
