/* dtx-args: -v -q -x strsize=10000 -c '@TRIGGERS@/dtx-usdt cold' */
/* dtx-requires: uprobes sleepable_uprobes */
/* A clause context larger than a thread's task storage holds (strings of
   10000 bytes in six this-> variables, in scratch and in the record): the
   program is not sleepable, -v says why, and a string on a page the process
   has never touched is an invalid address, as on a kernel without sleepable
   uprobe programs. */
pid$target:a.out:dtxtest_cold_call:entry
{
	this->a = copyinstr(arg0);
	this->b = copyinstr(arg0);
	this->c = copyinstr(arg0);
	this->d = copyinstr(arg0);
	this->e = copyinstr(arg0);
	this->f = copyinstr(arg0);
	printf("%s\n", this->a);
}
