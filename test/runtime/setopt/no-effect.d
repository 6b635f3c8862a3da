/*
 * A dynamic option dtx accepts but has no use for: a notice, once, and no
 * warning; rates need nothing and say nothing.
 */

#pragma D option quiet

BEGIN
{
	setopt("printsize", "100");
	setopt("printsize", "200");
	setopt("switchrate", "10hz");
	setopt("aggrate", "1s");
	printf("done\n");
	exit(0);
}
