/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 4' */
/* dtx-requires: uprobes */
/* The guarded probe's semaphore is raised by the kernel while it is traced:
   its body runs only then (the program says how often on stderr). */
dtxtest$target:::guarded { @guarded = count(); @sum = sum(arg0); }
END { printa("guarded %@d times, arguments sum to %@d\n", @guarded, @sum); }
