/* dtx-args: -q -c '@TRIGGER@ getpid 20 write 30 nanosleep 40' */
/* Every system call of the trigger; the three it makes most often are the
   commands' (the C library's start-up makes only a few). */
syscall:::entry
/pid == $target/
{
	@[probefunc] = count();
}

END
{
	trunc(@, 3);
}
