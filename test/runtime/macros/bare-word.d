/* dtx-args: -q */
/* dtx-operands: dtx execname */
/*
 * `execname == $1` with a bare word as $1 compares strings; a word that
 * names a variable ($2 here: execname) is that variable, as in dtrace.
 */

BEGIN
/execname == $1/
{
	printf("%s %s %d\n", $1, $2, $2 == $1);
	exit(0);
}
