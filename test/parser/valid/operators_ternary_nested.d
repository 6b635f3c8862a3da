/* the conditional operator ?: nested in both arms, right associative, with strings and in arguments */

syscall::read:return
{
	size = arg0 < 0 ? 0 : arg0;
	bucket = size < 512 ? "small" : size < 8192 ? "medium" : size < 1048576 ? "large" : "huge";
	kind = size ? (size > 4096 ? "big" : "little") : "empty";
	flag = arg0 == 0 ? 1 ? 2 : 3 : 4;
	@sizes[bucket] = count();
	@kinds[kind] = sum(flag);
	printf("%s\n", errno != 0 ? "failed" : "ok");
}
