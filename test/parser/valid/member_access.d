/* member access with . and ->, chains of them, args[] members, curthread, and members of xlate results */
/* dtx-requires: fbt btf */

fbt::vfs_read:entry
{
	this->f = (struct file *)arg0;
	this->ino = this->f->f_inode->i_ino;
	this->name = stringof(this->f->f_path.dentry->d_name.name);
	this->mnt = this->f->f_path.mnt->mnt_root->d_inode->i_sb->s_dev;
	@reads[this->name, this->ino] = count();
}

sdt:sched::sched_switch
{
	@prio[args[2]] = count();		/* prev_prio: sdt args[] are the event's fields */
	@next[stringof(args[4])] = count();	/* next_comm */
}

profile-99
{
	@parents[curthread->real_parent->pid, stringof(curthread->real_parent->comm)] = count();
	this->mm = curthread->mm;
	@rss = max(this->mm ? this->mm->total_vm : 0);
}

syscall::execve:entry
{
	@args[curpsinfo->pr_psargs] = count();
	@ppid[curpsinfo->pr_ppid] = count();
}
