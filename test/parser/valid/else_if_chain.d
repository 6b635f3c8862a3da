/* else if chains, nested if/else inside branches, and conditions with full expressions */

syscall::write:entry
{
	if (arg2 == 0) {
		kind = "empty";
	} else if (arg2 < 512) {
		kind = "small";
	} else if (arg2 < 65536) {
		kind = "medium";
		if (arg2 % 4096 == 0) {
			aligned = 1;
		} else {
			aligned = 0;
		}
	} else if (arg2 < 1048576 && execname != "dd") {
		kind = "large";
	} else {
		kind = "huge";
	}
	@kinds[kind] = count();

	if (arg0 == 1) trace("stdout"); else if (arg0 == 2) trace("stderr"); else trace(arg0);
}
