/* dtx-args: -q -w -c '@TRIGGER@ copyout-target 3' */
/* dtx-requires: write_user */
/*
 * copyoutstr(string, address, size) writes the string and its NUL into the
 * current process, at most size bytes: the trigger passes a buffer holding
 * "0123456789abcdefghijklmnopqrstuv" to write() three times and prints it
 * after each. The first write gets "dtx" and its NUL; the second only the
 * first 4 bytes of "copyoutstr", without a NUL; the third a string built in
 * the probe, at an offset.
 */

syscall::write:entry
/pid == $target && arg0 == 100 && ++n == 1/
{
	copyoutstr("dtx", arg1, 32);
}

syscall::write:entry
/pid == $target && arg0 == 100 && n == 2/
{
	copyoutstr("copyoutstr", arg1, 4);
}

syscall::write:entry
/pid == $target && arg0 == 100 && n == 3/
{
	copyoutstr(strjoin(execname, "!"), arg1 + 10, 32);
}
