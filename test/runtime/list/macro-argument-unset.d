/* dtx-args: -l */
/* dtx-operands: BEGIN */
/* -l: a macro argument the command line does not give is an error. */
dtrace:::$2
{
}
