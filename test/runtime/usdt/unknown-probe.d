/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 1' */
/* dtx-requires: uprobes */
dtxtest$target:::no-such-probe { exit(0); }
