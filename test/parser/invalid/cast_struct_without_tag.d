/* invalid: struct in a cast with no tag and no member list */

fbt::vfs_read:entry
{
	this->f = (struct)arg0;
}
