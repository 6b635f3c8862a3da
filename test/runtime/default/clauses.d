/* dtx-cpu: 0 */
/*
 * Default output: each clause that runs prints its own probe line, with its
 * printf() output after it; a newline in the output does not repeat the
 * prefix.
 */

BEGIN
{
	printf("first");
}

BEGIN
{
	printf("second\nline");
}

END
{
	printf("%d", 3);
}

BEGIN
{
	exit(0);
}
