/* macro arguments inside probe descriptions: pid$1, syscall::$2:entry, $target */
/* dtx-skip: pid$1 needs the pid of a running process as $1, which a fixed command line cannot give */

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
