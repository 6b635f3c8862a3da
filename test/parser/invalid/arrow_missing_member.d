/* invalid: -> with no member name after it */

fbt::vfs_read:entry
{
	this->f = (struct file *)arg0;
	this->pos = this->f->;
}
