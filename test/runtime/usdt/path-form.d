/* dtx-args: -q -n 'usdt:@TRIGGERS@/dtx-usdt:dtxtest:tick /pid == $target/ { @ticks = count(); }' -c '@TRIGGERS@/dtx-usdt 5' */
/* dtx-requires: uprobes */
/* usdt:PATH:PROVIDER:NAME traces the file's probe in every process. */
END { printa("ticks %@d\n", @ticks); }
