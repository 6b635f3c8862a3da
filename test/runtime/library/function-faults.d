/* dtx-args: -q */
/*
 * An address family, link type or base the functions do not know is an
 * illegal operation; an address that cannot be read, an invalid address.
 */

BEGIN
{
	this->p = (ipaddr_t *)alloca(16);
	this->af = 3;
	trace(inet_ntop(this->af, this->p));
}

BEGIN
{
	this->p = (ipaddr_t *)alloca(16);
	this->type = ARPHRD_LOOPBACK;
	trace(link_ntop(this->type, this->p));
}

BEGIN
{
	this->base = 37;
	trace(strtoll("12", this->base));
}

BEGIN
{
	trace(inet_ntoa(NULL));
}

BEGIN
{
	trace(inet_ntoa6((in6_addr_t *)8));
}

ERROR
{
	printf("%s %d\n", arg4 == DTRACEFLT_ILLOP ? "illegal operation" :
	    arg4 == DTRACEFLT_BADADDR ? "invalid address" : "other", arg5);
}

BEGIN
{
	exit(0);
}
