/* dtx-args: -v -q -c '@TRIGGERS@/dtx-usdt cold' */
/* dtx-requires: uprobes sleepable_uprobes */
/* -v says that the probe's program is sleepable, and so reads a string on a
   page the process has never touched. */
dtxtest$target:::cold
{
	printf("%s\n", copyinstr(arg1));
}
