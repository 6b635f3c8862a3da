/* dtx-args: -q */
/* dtrace has no hh size prefix: %hhd is an undefined conversion, a compile error. */

BEGIN
{
	printf("%hhd\n", (char)1);
	exit(0);
}
