/* dtx-args: -q */
/* htons/htonl/htonll and ntohs/ntohl/ntohll swap bytes on this little-endian machine. */

BEGIN
{
	printf("%x %x %x\n", htons(0x1234), htonl(0x12345678), htonll(0x0102030405060708));
	printf("%x %x %x\n", ntohs(0xabcd), ntohl(0xdeadbeef), ntohll(0x1122334455667788));
	printf("%x %x\n", ntohs(htons(0x4321)), htonl(1));
	exit(0);
}
