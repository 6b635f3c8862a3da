/* dtx-args: -q -x defaultargs */
/* dtx-operands: getpid */
/*
 * An unset $2 in a probe description is an error even with defaultargs, as
 * in dtrace (an empty field would match every probe).
 */

syscall::$1:$2
{
	exit(0);
}
