/* dtx-args: -l */
/* A description its provider rejects is an error before anything is listed. */
profile:::profile-1ns,
dtrace:::BEGIN
{
}
