/* dtx-cpu: 0 */
/*
 * Default output: the newline that ends each firing's line follows the
 * printf() output, so a printf() ending in "\n" leaves an empty line.
 */

BEGIN
{
	printf("hello\n");
	exit(0);
}
