/* dtx-requires: btf */
/* dtx-args: -q */
/* curthread is the struct task_struct of the thread the probe fired in:
   BEGIN fires in dtx itself. */

BEGIN
{
	printf("%s\n", stringof(curthread->comm));
	exit(0);
}
