/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/* dtx-xfail: tracemem() refuses an array (D_TRACEMEM_ADDR), which dtrace takes as the address of its first element (check_tracemem, codegen/functions/actions.cpp) */
/* tracemem() of a char array member takes its address, as for a pointer. */

syscall::getpid:entry
/pid == $target/
{
	tracemem(curthread->comm, 16);
	printf("\n");
}
