/* pid provider descriptions: pid$target with a library, a numeric pid, a return probe and an offset probe */
/* dtx-skip: its pid123 probes need a process 123, which no machine is sure to have */

pid$target:libc.so.6:malloc:entry
{
	self->size = arg0;
}

pid$target:libc.so.6:malloc:return
/self->size/
{
	@bytes[ustack(5)] = sum(self->size);
	self->size = 0;
}

pid123:a.out:main:entry
{
	self->start = timestamp;
}

pid123:a.out:main:return
/self->start/
{
	printf("main returned %d after %d ns\n", arg1, timestamp - self->start);
	self->start = 0;
}

pid123:a.out:main:1c
{
	printf("reached main+0x1c, pc %p\n", uregs[R_PC]);
}

pid$target:a.out:main:1c
{
	trace(probename);
}
