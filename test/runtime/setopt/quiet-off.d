/* dtx-args: -q */
/* dtx-cpu: 0 */
/*
 * setopt("quiet", "no") under -q: the record that unsets it ends with a
 * newline; later records show their probe line, but no heading (dtrace
 * decides on it once, at the first record) and trace() pads again.
 */

BEGIN
{
	printf("a");
	setopt("quiet", "no");
}

BEGIN
{
	trace(5);
	exit(0);
}
