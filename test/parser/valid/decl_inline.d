/* inline definitions: integer, string, expression-valued, typed, and use inside predicates and keys */

inline int MAX = 10;
inline string NAME = "bash";
inline int KB = 1024;
inline int MB = KB * KB;
inline uint64_t NS_PER_MS = 1000000ULL;
inline int IS_ROOT = uid == 0;
inline string WHO = execname;
inline int WRITE_FLAG = 01;
inline char NL = '\n';

syscall::write:entry
/execname == NAME && arg2 >= MAX * KB/
{
	@big[WHO] = sum(arg2 / MB);
}

syscall::openat:entry
/IS_ROOT && (arg2 & WRITE_FLAG)/
{
	@root_writers[WHO] = count();
}

tick-1s
{
	printf("%d ms%c", timestamp / NS_PER_MS, NL);
}
