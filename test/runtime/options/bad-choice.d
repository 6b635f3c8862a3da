/* dtx-args: -x bufpolicy=circular */
/* A value dtrace would refuse is refused, naming the option, the value and what is expected. */

BEGIN
{
	exit(0);
}
