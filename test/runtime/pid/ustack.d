/* dtx-args: -q -c '@TRIGGER@ ustack 1 sleep 20' */
/* dtx-requires: uprobes */
/* ustack() and ustackdepth in a pid probe, whose program is sleepable where
   the kernel has sleepable uprobe programs: its walk of the user stack may
   then fault pages in. dtx-trigger's ustack command calls getpid from three
   functions in assembly, so every frame is known. */
pid$target:a.out:trigger_ustack_inner:entry
{
	ustack();
	printf("depth %d\n", ustackdepth);
}
