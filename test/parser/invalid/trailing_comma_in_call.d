/* invalid: a trailing comma after the last argument of a call */

BEGIN
{
	printf("%d\n", pid,);
	exit(0);
}
