/* kernel function probes: fbt with a glob, kprobe and fentry providers, entry and return */
/* dtx-requires: kprobes fentry btf */

fbt::vfs_*:entry
{
	@vfs[probefunc] = count();
}

fbt::vfs_read:return
{
	@ret = quantize(arg1);
}

kprobe::do_sys_openat2:entry
{
	@opens[execname] = count();
}

fentry::vfs_write:entry
{
	@writes[execname] = sum(arg2);
}

END
{
	printa(@vfs);
	printa(@ret);
	printa(@opens);
	printa(@writes);
}
