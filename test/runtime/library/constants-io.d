/* dtx-args: -q */
/* io.d: the bits of bufinfo_t's b_flags. */

BEGIN
{
	printf("%x %x %x %x\n", B_BUSY, B_DONE, B_ERROR, B_PAGEIO);
	printf("%x %x %x %x\n", B_PHYS, B_READ, B_WRITE, B_ASYNC);
	this->flags = 0x440;
	printf("%s %s\n", this->flags & B_READ ? "read" : "write",
	    this->flags & B_ASYNC ? "async" : "sync");
	exit(0);
}
