/* dtx-args: -l -i 0 */
/* An ID that names no probe is an error before anything is listed. */
dtrace:::BEGIN
{
}
