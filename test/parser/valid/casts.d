/* casts to int, unsigned long long, struct pointers, char *, uint64_t, typedef names, pointer to pointer and void * */

typedef unsigned long long nanosec_t;

struct req {
	int id;
	char *name;
};

syscall::openat:entry
{
	this->dfd = (int)arg0;
	this->total = (unsigned long long)arg2 * 2;
	this->name = (char *)arg1;
	this->wide = (uint64_t)arg3;
	this->ns = (nanosec_t)timestamp;
	this->req = (struct req *)arg1;
	this->argv = (char **)arg1;
	this->any = (void *)arg1;
	this->small = (unsigned char)(arg2 & 0xff);
	this->s = (short)-1;
	this->ll = (long long)(int)arg0;
	this->cptr = (const char *)arg1;
	this->nested = (int)(uint64_t)(char)arg2;
	printf("%d %d %s %d %d\n", this->dfd, this->total,
	    copyinstr((uintptr_t)this->name), this->wide, this->ns);
}
