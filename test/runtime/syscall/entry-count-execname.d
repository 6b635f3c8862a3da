/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 5' */
/* Only the trigger's own openat calls fire the probe: 5 of them. */
syscall::openat:entry
/pid == $target/
{
	@[execname] = count();
}
