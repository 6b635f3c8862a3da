/* explicitly declared thread-local (self) and clause-local (this) variables */

self int depth;
self uint64_t start;
self string path;
this int z;
this char *p;

syscall::openat:entry
{
	self->depth++;
	self->start = timestamp;
	self->path = copyinstr(arg1);
	this->z = 1;
	this->p = (char *)arg1;
}

syscall::openat:return
/self->start/
{
	this->z = (int)arg0;
	printf("%s fd=%d %d ns depth %d\n", self->path, this->z, timestamp - self->start, self->depth);
	self->start = 0;
	self->depth--;
}
