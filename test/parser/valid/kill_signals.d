/* who sends which signal to whom: kill(2) arguments, progenyof() and a result check */
/* dtx-args: -c '@TRIGGER@ getpid 1' */

#pragma D option quiet

syscall::kill:entry
{
	self->target = (int)arg0;
	self->sig = (int)arg1;
}

syscall::kill:return
/self->sig/
{
	printf("%-16s %6d -> %6d sig %2d result %d%s\n", execname, pid, self->target,
	    self->sig, (int)arg0, progenyof($target) ? " (target child)" : "");
	@sigs[execname, self->sig] = count();
	self->target = 0;
	self->sig = 0;
}
