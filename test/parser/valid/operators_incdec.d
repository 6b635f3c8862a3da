/* ++ and -- in prefix and postfix positions on globals, thread-locals, clause-locals and array elements */

syscall::read:entry
{
	n++;
	++n;
	n--;
	--n;
	self->reads++;
	--self->budget;
	this->i = 0;
	this->j = this->i++ + ++this->i;
	counts[execname]++;
	++counts["total"];
	counts["total"]--;
	@last = max(n++);
}

END
{
	printf("%d %d\n", n, counts["total"]);
}
