/* dtx-args: -q */
/*
 * The words dtrace takes for a toggled option: "off", "no", "unset" and ""
 * unset it; "on", "yes", "set" and numbers set it.
 */

BEGIN
{
	setopt("quiet", "off");
	setopt("quiet", "on");
	setopt("quiet", "unset");
	setopt("quiet", "1");
	setopt("quiet", "");
	setopt("quiet", "yes");
	printf("quiet\n");
	exit(0);
}
