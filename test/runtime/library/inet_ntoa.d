/* dtx-args: -q */
/* inet_ntoa(): an IPv4 address (network byte order) as a dotted quad. */

ipaddr_t *ip;

BEGIN
{
	ip = (ipaddr_t *)alloca(sizeof(ipaddr_t));
	*ip = htonl(0xc0a80117);
	printf("%s\n", inet_ntoa(ip));
	*ip = htonl(0x7f000001);
	printf("%s\n", inet_ntoa(ip));
	*ip = 0xffffffff;
	printf("%s\n", inet_ntoa(ip));
	*ip = 0;
	printf("%s\n", inet_ntoa(ip));
	*ip = htonl(0x0a09630b);
	this->text = inet_ntoa(ip);
	printf("%s %d\n", this->text, strlen(this->text));
	exit(0);
}
