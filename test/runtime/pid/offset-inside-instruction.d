/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 1' */
/* dtx-requires: uprobes */
/* A breakpoint inside an instruction would corrupt the program. */
pid$target:a.out:dtx_add:1 { exit(0); }
