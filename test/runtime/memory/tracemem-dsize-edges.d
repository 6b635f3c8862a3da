/* dtx-args: -q -c '@TRIGGER@ open /etc/hostname 1' */
/* dtx-xfail: tracemem() with a third argument of 0 prints the dump's heading (dtrace prints nothing), and with a negative one prints no bytes (dtrace prints all of them): consume_tracemem clamps dsize to 0..size and format_bytes always heads (codegen/functions/actions.cpp, libtrace/print_value.cpp) */
/*
 * tracemem(addr, size, dsize): dsize 0 shows nothing, not even the heading;
 * a negative dsize (of a signed type) shows all size bytes, as in
 * dtrace-utils' tracemem tests.
 */

syscall::openat:entry
/pid == $target/
{
	this->path = copyin(arg1, 14);
	printf("0:");
	tracemem(this->path, 14, 0);
	printf("\n-1:");
	tracemem(this->path, 14, -1);
	printf("\n");
}
