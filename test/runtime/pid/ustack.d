/* dtx-args: -v -q -c '@TRIGGER@ ustack 1 sleep 20' */
/* dtx-requires: uprobes sleepable_uprobes */
/* ustack() and ustackdepth in a pid probe whose program is sleepable (its
   clause copies user memory in): the kernel's walk of the user stack there
   may fault pages in. dtx-trigger's ustack command calls getpid from three
   functions in assembly, so every frame is known. */
pid$target:a.out:trigger_ustack_inner:entry
{
	this->return_address = *(uint64_t *)copyin(uregs[R_SP], 8);
	ustack();
	printf("depth %d, returns into the stack's second frame: %d\n", ustackdepth,
	    this->return_address == ucaller);
}
