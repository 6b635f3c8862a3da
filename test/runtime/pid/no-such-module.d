/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 1' */
/* dtx-requires: uprobes */
pid$target:libnothere.so:malloc:entry { exit(0); }
