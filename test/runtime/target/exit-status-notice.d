/* dtx-args: -c false */
/* dtx-cpu: 0 */
/*
 * Without -q, dtx reports how the command ended, as dtrace does; its failure
 * is not dtx's: the exit status is 0.
 */

BEGIN
{
}
