/* dtx-args: -c 'sh -c kill$IFS-9$IFS$$' */
/* dtx-cpu: 0 */
/*
 * A command killed by a signal ends tracing too, and dtx still exits 0.
 * (dtx splits -c at white space without quoting, as dtrace does: hence $IFS.)
 */

BEGIN
{
}
