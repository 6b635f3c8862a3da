/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 1' */
/* dtx-requires: uprobes */
pid$target:a.out:no_such_function:entry { exit(0); }
