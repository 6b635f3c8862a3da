/*
 * Block I/O as DTrace's io.d shows it: bufinfo_t, devinfo_t and fileinfo_t
 * (with dtrace-utils' members), translated from the kernel's struct request
 * for the io provider's args[0], args[1] and args[2].
 */

typedef struct bufinfo {
	int b_flags;		/* B_READ or B_WRITE, B_ASYNC unless synchronous */
	size_t b_bcount;	/* bytes requested */
	caddr_t b_addr;		/* buffer address (none for a request: 0) */
	uint64_t b_lblkno;	/* first 512-byte sector */
	uint64_t b_blkno;	/* the same */
	size_t b_resid;		/* bytes not transferred (0) */
	size_t b_bufsize;	/* bytes in the buffer */
	caddr_t b_iodone;	/* completion routine (0) */
	int b_error;		/* error (0) */
	dev_t b_edev;		/* the device, MKDEV(major, minor) */
} bufinfo_t;

typedef struct devinfo {
	int dev_major;
	int dev_minor;
	int dev_instance;	/* the partition number */
	string dev_name;	/* the disk: "sda", "vda", "nvme0n1" */
	string dev_statname;	/* the disk and partition: "sda1" */
	string dev_pathname;	/* "/dev/sda1" */
} devinfo_t;

typedef struct fileinfo {
	string fi_name;		/* basename of fi_pathname */
	string fi_dirname;	/* dirname of fi_pathname */
	string fi_pathname;	/* the file's path */
	loff_t fi_offset;	/* offset in the file */
	string fi_fs;		/* file system type */
	string fi_mount;	/* its mount point */
	int fi_oflags;		/* open(2) flags */
} fileinfo_t;

/*
 * REQ_OP_* is the request's low 8 bits (odd: a write); REQ_SYNC is bit 11
 * of cmd_flags.
 */
translator bufinfo_t < struct request *R > {
	b_flags = (R->cmd_flags & 1 ? B_WRITE : B_READ) | (R->cmd_flags & (1 << 11) ? 0 : B_ASYNC);
	b_bcount = R->__data_len;
	b_addr = 0;
	b_lblkno = R->__sector;
	b_blkno = R->__sector;
	b_resid = 0;
	b_bufsize = R->__data_len;
	b_iodone = 0;
	b_error = 0;
	b_edev = R->part ? R->part->bd_dev :
	    (dev_t)R->q->disk->major << 20 | R->q->disk->first_minor;
};

/* The partition: its minor number less the disk's first. */
translator devinfo_t < struct request *R > {
	dev_major = R->q->disk->major;
	dev_minor = R->part ? R->part->bd_dev & 0xfffff : R->q->disk->first_minor;
	dev_instance = R->part ?
	    (R->part->bd_dev & 0xfffff) - R->q->disk->first_minor : 0;
	dev_name = stringof(R->q->disk->disk_name);
	dev_statname = R->part && (R->part->bd_dev & 0xfffff) != R->q->disk->first_minor ?
	    strjoin(stringof(R->q->disk->disk_name),
	    lltostr((R->part->bd_dev & 0xfffff) - R->q->disk->first_minor)) :
	    stringof(R->q->disk->disk_name);
	dev_pathname = strjoin("/dev/", R->part &&
	    (R->part->bd_dev & 0xfffff) != R->q->disk->first_minor ?
	    strjoin(stringof(R->q->disk->disk_name),
	    lltostr((R->part->bd_dev & 0xfffff) - R->q->disk->first_minor)) :
	    stringof(R->q->disk->disk_name));
};

/* A request does not say which file it is for: dtrace-utils' "<none>". */
translator fileinfo_t < struct request *R > {
	fi_name = "<none>";
	fi_dirname = "<none>";
	fi_pathname = "<none>";
	fi_offset = 0;
	fi_fs = "<none>";
	fi_mount = "<none>";
	fi_oflags = 0;
};

/* An open file: what fds[] gives for each of a process's descriptors. */
translator fileinfo_t < struct file *F > {
	fi_name = F == NULL ? "<none>" : basename(d_path(&F->f_path));
	fi_dirname = F == NULL ? "<none>" : dirname(d_path(&F->f_path));
	fi_pathname = F == NULL ? "<none>" : d_path(&F->f_path);
	fi_offset = F == NULL ? 0 : F->f_pos;
	fi_fs = F == NULL ? "<none>" : stringof(F->f_path.mnt->mnt_sb->s_type->name);
	fi_mount = F == NULL ? "<none>" : _dtx_mountpoint(F->f_path.mnt);
	fi_oflags = F == NULL ? 0 : F->f_flags;
};

/*
 * fds[fd]: the current process's open file fd, or "<none>" for a
 * descriptor that is not open.
 */
inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (
    fd >= 0 && fd < curthread->files->fdt->max_fds ?
    curthread->files->fdt->fd[fd] : NULL);
