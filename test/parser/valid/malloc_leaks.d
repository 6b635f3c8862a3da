/* a malloc/free leak finder with the pid provider: outstanding allocations keyed by address */
/* dtx-args: -c '@TRIGGERS@/dtx-funcs' */
/* dtx-requires: uprobes */

#pragma D option quiet

pid$target:libc.so.6:malloc:entry
{
	self->size = arg0;
}

pid$target:libc.so.6:malloc:return
/self->size && arg1 != 0/
{
	live[arg1] = self->size;
	@outstanding[ustack(8)] = sum(self->size);
	@allocs = count();
	self->size = 0;
}

pid$target:libc.so.6:free:entry
/live[arg0]/
{
	@frees = count();
	@freed = sum(live[arg0]);
	live[arg0] = 0;
}

END
{
	printa("allocations %@d\n", @allocs);
	printa("frees       %@d\n", @frees);
	printa("freed bytes %@d\n", @freed);
	trunc(@outstanding, 10);
	printa(@outstanding);
}
