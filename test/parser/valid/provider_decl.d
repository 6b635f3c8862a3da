/* provider definitions for USDT probes: unnamed and named parameters, no parameters, and native : translated forms */
/* dtx-skip: no program on the machine has the USDT provider foo it traces */

provider foo {
	probe bar(int, char *);
	probe baz();
	probe request__start(int id, const char *url, size_t len);
	probe request__done(uintptr_t, int) : (uintptr_t, int);
	probe query(char *, int) : (string, int);
};

provider empty {
};

foo$target:::bar
{
	printf("bar(%d, %s)\n", arg0, copyinstr(arg1));
}

foo*:::request-start
{
	self->t = timestamp;
}
