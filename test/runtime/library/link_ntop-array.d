/* dtx-args: -q */
/*
 * link_ntop() and inet_ntop() take an array of the address's bytes as well
 * as a pointer to them, as a C function takes an array.
 */

uint8_t mac[6];
uint8_t v4[4];

BEGIN
{
	mac[0] = 0x00; mac[1] = 0x1b; mac[2] = 0x21; mac[3] = 0xab; mac[4] = 0xcd; mac[5] = 0xef;
	v4[0] = 192; v4[1] = 168; v4[2] = 1; v4[3] = 20;
	printf("%s %s\n", link_ntop(ARPHRD_ETHER, mac), inet_ntop(AF_INET, v4));
	exit(0);
}
