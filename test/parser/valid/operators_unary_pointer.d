/* unary operators: * dereference, & address-of, - + ~ !, combined with casts and member access */
/* dtx-requires: fbt btf */

fbt::vfs_read:entry
{
	this->file = (struct file *)arg0;
	this->path = &this->file->f_path;
	this->dentry = *(&this->file->f_path.dentry);
	this->flags = *(unsigned int *)&this->file->f_flags;
	this->pos = *(long long *)arg3;
	this->neg = -this->pos + +1;
	this->inv = ~(uint32_t)this->file->f_mode;
	this->none = !this->path;
	this->twice = !!this->dentry;
	@modes[this->inv & 0x3] = count();
	@flags[this->flags] = count();
	@pos = quantize(-this->neg);
}
