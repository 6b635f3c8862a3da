/* dtx-args: -q */
/*
 * NULL is the int constant 0, as in dtrace: sizeof 4, printed with %u or
 * %d, compared with pointers and with 64-bit arguments, and taken by any
 * pointer.
 */

BEGIN
{
	p = (char *)0;
	printf("%d %u %d\n", sizeof(NULL), NULL, NULL);
	printf("%d %d\n", p == NULL, NULL == p);
	printf("%d\n", arg0 == NULL);
	q = (int *)8;
	printf("%d\n", q != NULL);
	q = NULL;
	printf("%d\n", q == 0);
	exit(0);
}
