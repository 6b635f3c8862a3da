/* dtx-args: -v -q -c '@TRIGGERS@/dtx-usdt cold' */
/* dtx-requires: uprobes sleepable_uprobes */
/* -v says which program is sleepable: the USDT probe's, whose clause reads
   a string on a page the process has never touched, and not the pid
   probe's, whose clause reads no user memory. */
pid$target:a.out:dtxtest_cold_call:entry
{
	@calls = count();
}

dtxtest$target:::cold
{
	printf("%s\n", copyinstr(arg1));
}

END
{
	printa("%@d call\n", @calls);
}
