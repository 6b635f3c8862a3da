/* dtx-args: -q -c '@TRIGGER@ getpid 1' */
/* tracemem() of kernel memory: the trigger's task's comm, a char[16]. */

syscall::getpid:entry
/pid == $target/
{
	tracemem((char *)curthread->comm, 16);
	tracemem((char *)curthread->comm, 16, 3);
	printf("\n");
}
