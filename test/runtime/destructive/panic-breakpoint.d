/* dtx-args: -q -w */
/*
 * panic() and breakpoint() keep dtrace's checks (arity, permission,
 * speculation), then are refused: nothing on Linux does them.
 */

BEGIN
{
	panic();
}

BEGIN
{
	breakpoint();
}
