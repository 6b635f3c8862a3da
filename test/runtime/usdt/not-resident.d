/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt cold' */
/* dtx-requires: uprobes sleepable_uprobes */
/* Arguments on pages the process has never touched (the trigger checks in
   /proc/self/pagemap that the memory file's are not mapped): a sleepable
   uprobe program faults each in where it reads it. A string literal alone
   in its 64 KiB block of the executable, strings of a memory file for
   copyinstr() (whole and at most 9 bytes) and copyin(), a long there that
   the probe's note gives as a memory operand, and a string that begins on
   a page the process has written and ends on one it has not touched. */
dtxtest$target:::cold
{
	printf("%s|%s|%s|%d|%s\n", copyinstr(arg0), copyinstr(arg1, 9), stringof(copyin(arg2, 11)),
	    arg3, copyinstr(arg4));
}
