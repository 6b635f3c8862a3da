/* dtx-args: -q */
/*
 * An index past an array's declared bound is a run-time fault: the clause
 * stops there (variables it stored before keep their values, but what it
 * traced is dropped with the rest of its record), and the ERROR probe fires
 * with arg4 = 10 (DTRACEFLT_BADINDEX) and arg5 the index. The index of the
 * last element is fine.
 */

int arr[4];

BEGIN
{
	i = 3;
	arr[i] = 33;
	printf("%d\n", arr[i]);
	i = 4;
	before = 1;
	arr[i] = 44;
	after = 1;
}

ERROR
{
	printf("%d %d %d %d %d\n", arg4, arg5, before, after, arr[3]);
	exit(0);
}
