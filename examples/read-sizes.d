#!/usr/sbin/dtx -s
/* Distribution of read(2) sizes by process, with failed reads counted apart. */
#pragma D option quiet

syscall::read:entry
{
	self->size = arg2;
}

syscall::read:return
/self->size && (int)arg1 >= 0/
{
	@bytes[execname] = quantize(arg1);
}

syscall::read:return
/self->size && (int)arg1 < 0/
{
	@failed[execname, errno] = count();
}

syscall::read:return
{
	self->size = 0;
}

END
{
	printa("%-16s errno %3d: %@d\n", @failed);
}
