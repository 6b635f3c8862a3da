/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/* tracemem() of a char array member takes its address, as for a pointer. */

syscall::getpid:entry
/pid == $target/
{
	tracemem(curthread->comm, 16);
	printf("\n");
}
