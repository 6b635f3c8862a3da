/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 3 fail-open 2' */
/* open* matches openat (and open, openat2...), of which the trigger calls openat. */
syscall::open*:entry
/pid == $target/
{
	@[probefunc] = count();
}
