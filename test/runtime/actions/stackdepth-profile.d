/* dtx-args: -q */
/*
 * stackdepth in profile firings that interrupted the kernel (arg0 is the
 * kernel PC) is never 0; max(1) makes the printed value independent of how
 * often the probe fired.
 */

profile-997
/arg0 != 0/
{
	@kernel[stackdepth > 0 ? "frames" : "no frames"] = max(1);
}

tick-500ms
{
	exit(0);
}
