/* dtx-args: -q */
/* link_ntop(): a link-layer address in hex bytes between ':'. */

BEGIN
{
	this->mac = (uint8_t *)alloca(20);
	this->mac[0] = 0x00;
	this->mac[1] = 0x1b;
	this->mac[2] = 0x21;
	this->mac[3] = 0x3c;
	this->mac[4] = 0x4d;
	this->mac[5] = 0xef;
	this->mac[19] = 0xff;
	printf("%s\n", link_ntop(ARPHRD_ETHER, this->mac));
	printf("%s\n", link_ntop(ARPHRD_INFINIBAND, this->mac));
	exit(0);
}
