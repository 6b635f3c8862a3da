/* dtx-args: -q */
/*
 * profile-N fires within half a second; max(1) keeps the output the same
 * however many times and on however many CPUs it fired.
 */

profile-997
{
	@fired[probeprov, probename] = max(1);
}

tick-500ms
{
	exit(0);
}
