/* dtx-args: -q */
/* dtx-requires: fentry */
fentry::migrate_disable:entry
{
}
