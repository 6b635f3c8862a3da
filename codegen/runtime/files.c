// Files and paths (codegen/functions/files.cpp): the dentry walk behind
// d_path(), cwd, root and fileinfo_t's fi_mount.

#include "dtx_runtime.h"

// ---- Paths -------------------------------------------------------------------

static long (*bpf_probe_read_kernel)(void *dst, u32 size, const void *src) = (void *)113;

// Where the kernel keeps what a path walk reads: byte offsets from BTF, in
// this order (the code generator fills a table of them).
struct path_offsets {
    u64 dentry_parent;    // struct dentry: d_parent
    u64 dentry_name;      // struct dentry: d_name.name
    u64 vfsmount_root;    // struct vfsmount: mnt_root
    u64 mount_vfsmount;   // struct mount: mnt, the struct vfsmount in it
    u64 mount_parent;     // struct mount: mnt_parent
    u64 mount_mountpoint; // struct mount: mnt_mountpoint
};

struct path_walk {
    const struct path_offsets *offsets;
    char *path;      // 2 * size bytes: the path grows down from path[size]
    char *component; // size bytes
    u64 size;
    u64 start; // the path so far is path[start .. size)
    u64 dentry, mount, root_dentry, root_mount;
};

INLINE u64 read_word(u64 address) {
    u64 value = 0;
    bpf_probe_read_kernel(&value, sizeof(value), (const void *)address);
    return value;
}

// One step up: to the parent directory, or across a mount point; 1 at the
// root (or when the path no longer fits).
CALLBACK long dtx_rt_step_dentry(u32 index, struct path_walk *walk) {
    (void)index;
    const struct path_offsets *o = walk->offsets;
    if (walk->dentry == walk->root_dentry && walk->mount == walk->root_mount)
        return 1;
    u64 parent = read_word(walk->dentry + o->dentry_parent);
    if (walk->dentry == read_word(walk->mount + o->vfsmount_root) || walk->dentry == parent) {
        u64 mount = walk->mount - o->mount_vfsmount;
        u64 above = read_word(mount + o->mount_parent);
        if (above == mount || above == 0)
            return 1; // the namespace's root
        walk->dentry = read_word(mount + o->mount_mountpoint);
        walk->mount = above + o->mount_vfsmount;
        return 0;
    }
    u64 name = read_word(walk->dentry + o->dentry_name);
    u64 size = walk->size;
    long copied = bpf_probe_read_kernel_str(walk->component, (u32)size, (const void *)name);
    if (copied < 1)
        return 1;
    u64 length = unlinked((u64)copied - 1);
    u64 start = unlinked(walk->start);
    if (length >= size || start > size || length + 1 > start)
        return 1; // does not fit: the path stays as far as it got
    u64 at = start - length;
    barrier_var(at);
    if (at > size)
        return 1;
    bpf_probe_read_kernel(walk->path + at, (u32)length, walk->component);
    at -= 1;
    barrier_var(at);
    if (at >= size)
        return 1;
    walk->path[at] = '/';
    walk->start = at;
    walk->dentry = parent;
    return 0;
}

// What dtx_rt_dentry_path starts from: `dentry` on `mount` (a struct
// vfsmount *), seen from the root `root_dentry` on `root_mount`; the
// buffer's room follows it.
struct path_request {
    u64 dentry, mount, root_dentry, root_mount;
    char room[];
};

// The path of the request's dentry as d_path() gives it ("/" at the root),
// into dst; the request has 3 * size bytes of room. Returns 1.
RUNTIME s64 dtx_rt_dentry_path(char *dst, struct path_request *request,
                               const struct path_offsets *offsets, u64 size) {
    char *buffer = request->room;
    struct path_walk walk = {offsets,         buffer,          buffer + 2 * size,
                             size,            size,            request->dentry,
                             request->mount,  request->root_dentry, request->root_mount};
    buffer[size] = 0;
    bpf_loop(256, dtx_rt_step_dentry, &walk, 0);
    u64 start = unlinked(walk.start);
    if (start >= size) { // nothing above: the root
        set_single_character(dst, '/', size);
        return 1;
    }
    bpf_probe_read_kernel_str(dst, (u32)size, buffer + start);
    return 1;
}
