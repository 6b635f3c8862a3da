/* dtx-cpu: 0 */
/*
 * Default output: a clause whose only action is exit() still prints its
 * probe line; printf() output follows the line's prefix. END is probe ID 2.
 */

BEGIN
{
	exit(0);
}

END
{
	printf("bye");
}
