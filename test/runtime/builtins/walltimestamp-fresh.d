/* dtx-args: -q */
/*
 * walltimestamp is read afresh at each use, as in dtrace; timestamp is one
 * value for the whole firing.
 */

BEGIN
{
	t = timestamp;
	w = walltimestamp;
	s = strjoin(strjoin(lltostr(w), lltostr(t)), "..........");
	s = strjoin(s, s);
	printf("%d %d\n", timestamp == t, walltimestamp > w);
	exit(0);
}
