/* dtx-args: -q -c '@TRIGGERS@/dtx-funcs 3' */
/* dtx-requires: uprobes */
/* A return probe's arg0 is the address returned to: in run_loop, which called it. */
pid$target:a.out:dtx_add:return { @[probename, ufunc(arg0)] = count(); }
