/* dtx-args: -q */
/* exit(N) is the exit status; dtrace ends its output with a newline. */

BEGIN
{
	exit(3);
}
