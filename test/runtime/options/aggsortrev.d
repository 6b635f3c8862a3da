/* dtx-args: -q */
/* aggsortrev: value order reversed. */

#pragma D option aggsortrev

BEGIN
{
	@["a"] = sum(2);
	@["b"] = sum(3);
	@["c"] = sum(1);
	exit(0);
}
