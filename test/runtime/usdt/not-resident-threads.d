/* dtx-args: -q -c '@TRIGGERS@/dtx-usdt cold-threads' */
/* dtx-requires: uprobes sleepable_uprobes */
/* Four threads on one CPU fire a probe whose clause reads a string from a
   page that must come from disk: each firing sleeps in the read while the
   others fire. Each thread's firings keep their own clause context (its
   arguments, this-> variables), so every string is its thread's. */
dtxtest$target:::cold-thread
{
	this->text = copyinstr(arg0);
	@firings = count();
	@mismatches = sum(this->text != strjoin("thread-", lltostr(arg1)));
}

END
{
	printa("%@d firings, %@d mismatches\n", @firings, @mismatches);
}
