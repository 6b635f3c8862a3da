/* dtx-args: -x errtags */
/* errtags for an error of probe matching: the probe description's tag. */

syscall::nosuchcall:entry
{
}
