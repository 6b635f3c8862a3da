/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 1' */
/* dtx-requires: uprobes */
/* args[] are typed by the note's sizes: a 1-byte unsigned argument compares
   as one, a signed 2-byte one keeps its sign. */
dtxtest$target:::tick { printf("%d %d %d\n", args[3], args[4], sizeof (args[4])); }
