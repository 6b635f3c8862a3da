/* dtx-args: -q */
/*
 * getmajor(), getminor(): the kernel's dev_t encoding, MKDEV(major, minor)
 * = major << 20 | minor.
 */

BEGIN
{
	this->dev = (dev_t)8 << 20 | 3;
	printf("%d %d\n", getmajor(this->dev), getminor(this->dev));
	printf("%d %d\n", getmajor(0xfff00000), getminor(0xfffff));
	printf("%d %d\n", getmajor(0), getminor(0));
	printf("%s\n", getmajor(curpsinfo->pr_ttydev) == curpsinfo->pr_ttydev >> 20 ?
	    "tty ok" : "tty differs");
	exit(0);
}
