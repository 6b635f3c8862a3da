/* dtx-args: -q -p 1 -p @RUN_TEST_PID@ */
/* Several -p options grab several processes; $target is the first. */

BEGIN
{
	printf("%d\n", $target);
	exit(0);
}
