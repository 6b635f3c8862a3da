/* dtx-args: -q */
/*
 * An index past a string's strsize characters and its NUL is a fault: the
 * clause ends, ERROR fires, and the probe's next clause still runs.
 */

#pragma D option strsize=16

BEGIN
{
	s = "hello";
	i = 17;
	printf("%c\n", s[i]);
	printf("not reached\n");
}

BEGIN
{
	printf("next clause\n");
	exit(0);
}

ERROR
{
	printf("ERROR, fault %d\n", arg4);
}
