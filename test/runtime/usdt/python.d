/* dtx-args: -q -c '/usr/bin/python3.11 calls.py' */
/* dtx-requires: uprobes python3.11 */
/* Debian's python3.11, which nobody here wrote: function-return's arguments
   are the file, the function and the line. (3.11 fires function-entry only
   where its interpreter loop starts on a frame, as during start-up.) */
python$target:::function-return
/basename(copyinstr(arg0)) == "calls.py"/
{
	@[copyinstr(arg1), arg2] = count();
}

python$target:::function-entry
{
	entries++;
}

END
{
	printf("function-entry fired: %s\n", entries > 0 ? "yes" : "no");
}
