/* dtx-args: -q */
/*
 * strtok() returns NULL when no token is left: at the end of the scan, for
 * an empty string, and for delimiters only.
 */

BEGIN
{
	printf("%d\n", strtok("a,b", ",") != NULL);
	printf("%d\n", strtok(NULL, ",") != NULL);
	printf("%d\n", strtok(NULL, ",") == NULL);
	printf("%d\n", strtok("", "") == NULL);
	printf("%d\n", strtok("", "foo") == NULL);
	printf("%d\n", strtok(",,,", ",") == NULL);
	exit(0);
}
