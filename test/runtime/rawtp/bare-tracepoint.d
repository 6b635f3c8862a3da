/* dtx-args: -e */
/* Tracepoints without a tracefs event (DECLARE_TRACE, Linux >= 5.9 has
   pelt_cfs_tp) are in the vmlinux category. */
/* dtx-requires: btf */
rawtp:vmlinux::pelt_cfs_tp
{
	trace(args[0] != NULL);
}
