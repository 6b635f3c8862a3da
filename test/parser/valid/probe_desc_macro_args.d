/* macro arguments inside probe descriptions: pid$1, syscall::$2:entry, $target */

#pragma D option defaultargs

pid$1:libc.so.6:malloc:entry
{
	@sizes = quantize(arg0);
}

syscall::$2:entry
/pid == $1/
{
	@calls[probefunc] = count();
}

pid$target::free:entry
{
	@frees = count();
}

END
{
	printa(@sizes);
	printa(@calls);
	printa(@frees);
}
