/* dtx-args: -l */
/* dtx-operands: BEGIN */
/* -l expands $1 and $$1 in probe descriptions as tracing does. */
dtrace:::$1
{
}

dtrace:::$$1
{
}
