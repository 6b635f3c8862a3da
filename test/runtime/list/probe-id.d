/* dtx-args: -l -i 2 -n BEGIN */
/* -i names a probe by its ID; -n and -i add to the script's descriptions. */
dtrace:::ERROR,
dtrace:::BEGIN
{
}
