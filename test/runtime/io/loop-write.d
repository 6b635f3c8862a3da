/* dtx-args: -q -c ./loop-write.sh */
/* dtx-requires: loop */
/*
 * dd writes three 8 KiB blocks with O_DIRECT to a loop device: io:::start
 * and io:::done for each, with the request's bufinfo_t (B_WRITE, 8192
 * bytes), devinfo_t (loopN, /dev/loopN, its major and minor as in b_edev)
 * and fileinfo_t ("<none>": a request does not say which file).
 */

io:::start
/progenyof($target) && substr(args[1]->dev_name, 0, 4) == "loop"/
{
	printf("start %s %d bytes, %s, major %s, minor %s, file %s\n",
	    args[0]->b_flags & B_READ ? "read" : "write", args[0]->b_bcount,
	    args[1]->dev_pathname == strjoin("/dev/", args[1]->dev_name) ? "/dev/loopN" : "?",
	    args[1]->dev_major == getmajor(args[0]->b_edev) ? "as b_edev" : "differs",
	    args[1]->dev_minor == getminor(args[0]->b_edev) ? "as b_edev" : "differs",
	    args[2]->fi_pathname);
}

io:::done
/substr(args[1]->dev_name, 0, 4) == "loop" && args[0]->b_flags & B_WRITE/
{
	done += args[0]->b_bcount;
}

END
{
	printf("done: %d bytes\n", done);
}
