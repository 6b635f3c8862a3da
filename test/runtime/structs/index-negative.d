/* dtx-args: -q */
/* dtx-xfail: dtrace checks the index as an unsigned byte offset and reports it divided (unsigned) by the element size, so -1 in an int array is 4611686018427387903 in arg5; dtx reports -1 (codegen/lower_expr.cpp bounds check) */
/*
 * A negative index is out of bounds too. dtrace compares the element's byte
 * offset, unsigned, with the array's size, and reports the offset divided by
 * the element size: for -1 in an array of ints, (2^64 - 4) / 4.
 */

int arr[4];

BEGIN
{
	n = -1;
	arr[n] = 1;
}

ERROR
{
	printf("%d %u\n", arg4, arg5);
	exit(0);
}
