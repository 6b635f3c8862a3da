/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 2' */
/* dtx-requires: uprobes */
/* A probe in a shared library the target loads, named before it runs. */
dtxlib$target:::lib-call { printf("%s %s %d %s\n", probemod, probefunc, arg0, copyinstr(arg1)); }
dtxtest$target:::loop-start { printf("loop starts\n"); }
