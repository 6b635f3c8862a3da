/* dtx-args: -x errtags */
/*
 * -x errtags: a compile error in dtrace's one-line form, its tag first:
 * "failed to compile script F: [TAG] line N: message".
 */

BEGIN
{
	x = ;
}
