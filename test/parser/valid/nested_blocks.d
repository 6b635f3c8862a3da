/* nested { } blocks inside clause bodies and branches, empty blocks, and statements after a block */

syscall::openat:entry
{
	{
		this->flags = arg2;
		{
			this->mode = arg3;
		}
	}
	{ }
	if (this->flags & 0x40) {
		{
			@creates[execname] = count();
		}
	} else {
	}
	@opens = count();
}
