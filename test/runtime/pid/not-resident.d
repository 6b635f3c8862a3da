/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt cold' */
/* dtx-requires: uprobes sleepable_uprobes */
/* A function's argument that points at a page the process has never touched
   (a memory file's, mapped but not read): the pid provider's sleepable
   program faults it in. */
pid$target:a.out:dtxtest_cold_call:entry
{
	printf("%s\n", copyinstr(arg0));
}
