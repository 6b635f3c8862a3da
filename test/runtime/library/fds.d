/* dtx-args: -q -c '@TRIGGER@ write 1' */
/*
 * fds[] gives the current process's open files as fileinfo_t: the trigger
 * writes to descriptor 100, which it opened on /dev/null for writing; a
 * descriptor that is not open is "<none>". d_path() of the process's working
 * directory is cwd.
 */

syscall::write:entry
/pid == $target && arg0 == 100/
{
	printf("%s %s %s %s %s offset %d, write-only %d\n", fds[100].fi_pathname,
	    fds[100].fi_name, fds[100].fi_dirname, fds[100].fi_fs, fds[100].fi_mount,
	    fds[100].fi_offset, (fds[100].fi_oflags & 3) == 1);
	printf("fd 99: %s %s %d; fd -1: %s\n", fds[99].fi_pathname, fds[99].fi_fs,
	    fds[99].fi_oflags, fds[-1].fi_name);
	printf("d_path of the working directory is cwd: %d\n",
	    d_path(&curthread->fs->pwd) == cwd);
}
