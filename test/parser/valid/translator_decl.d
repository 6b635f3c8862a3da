/* translator definitions with struct input pointers and typedef output types, and xlate to struct and pointer */
/* dtx-requires: fbt btf */

struct in {
	int x;
	int y;
	char *label;
};

struct out {
	int a;
	int b;
	int sum;
	string label;
};

typedef struct my_fileinfo {
	string fi_name;
	uint64_t fi_offset;
	int fi_flags;
} my_fileinfo_t;

translator struct out < struct in *p > {
	a = p->x;
	b = p->y;
	sum = p->x + p->y;
	label = stringof(p->label);
};

translator my_fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" : stringof(F->f_path.dentry->d_name.name);
	fi_offset = F == NULL ? 0 : F->f_pos;
	fi_flags = F == NULL ? 0 : F->f_flags;
};

fbt::vfs_read:entry
{
	this->fi = xlate <my_fileinfo_t *>((struct file *)arg0);
	@reads[this->fi->fi_name] = count();
	@offsets = quantize(xlate <my_fileinfo_t> ((struct file *)arg0).fi_offset);
}

BEGIN
{
	this->o = xlate <struct out *>((struct in *)0);
	trace(xlate<struct out>((struct in *)0).sum);
}
