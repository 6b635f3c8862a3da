/* dtx-args: -q -c '@TRIGGER@ write 4 getpid 3' */
/* Entry and return probes of the same calls in one script, paired through a
   thread-local variable; each write returns 1 (byte written). */
syscall::write:entry,
syscall::getpid:entry
/pid == $target/
{
	self->in = 1;
	@entries[probefunc] = count();
}

syscall::write:return,
syscall::getpid:return
/self->in/
{
	self->in = 0;
	@returns[probefunc] = count();
}

syscall::write:return
/pid == $target/
{
	@written = sum(arg0);
}
