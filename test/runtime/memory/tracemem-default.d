/* dtx-args: -c '@TRIGGER@ open /etc/hostname 1' */
/* dtx-cpu: 0 */
/* Without -q the dump follows the probe line, and the firing ends with a newline. */

syscall::openat:entry
/pid == $target/
{
	tracemem(copyin(arg1, 5), 5);
}
