/* dtx-args: -q -x cpu=1 */
/* dtx-cpu: 0 */
/* dtx-requires: cpus2 */
/*
 * -x cpu=1: clauses run only on CPU 1, BEGIN and END there too, and tick-N
 * fires there, while dtx itself runs on CPU 0. profile-997 fires on every
 * CPU; only CPU 1's firings count.
 */

BEGIN
{
	printf("BEGIN on %d\n", cpu);
}

profile-997
{
	@[cpu] = count();
}

tick-200ms
/i++ == 1/
{
	printf("tick on %d\n", cpu);
	exit(0);
}

END
{
	printf("END on %d\n", cpu);
	printa("profile firings counted on %d\n", @);
}
