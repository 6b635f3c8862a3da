/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt 1' */
/* dtx-requires: uprobes */
/* A provider glob that names no other provider is searched for in every
   process, the -c command (not yet started) included: its probes are traced
   in every process that runs the file, named after the note's provider
   without a pid. */
dtxtes*:::tick
/pid == $target/
{
	printf("%s:%s:%s %d\n", probeprov, probemod, probename, args[3]);
}
