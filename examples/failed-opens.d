#!/usr/sbin/dtx -s
/*
 * The files a command fails to open, and why, with nothing about the opens
 * that work: each openat(2) speculates what its entry knows, and its return
 * commits the speculation when the call failed, discards it otherwise.
 * Usage: dtx -s failed-opens.d -c 'command'   (or -p PID)
 */
#pragma D option quiet
/* Enough speculations for the calls of all the command's threads at once. */
#pragma D option nspec=16

syscall::openat:entry
/pid == $target/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("%-16s %s", execname, copyinstr(arg1));
}

syscall::openat:return
/self->spec/
{
	speculate(self->spec);
	printf(": errno %d\n", errno);
}

syscall::openat:return
/self->spec && (int)arg1 < 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::openat:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
