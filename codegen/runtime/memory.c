// User memory in sleepable programs: copyinstr()'s second try
// (codegen/functions/memory.cpp), and the pages faulted in before a read
// that cannot fault (codegen/functions/process.cpp).

#include "dtx_runtime.h"

// ---- User memory in sleepable programs ---------------------------------------

// Reads of the current process's memory in a sleepable program (a uprobe's):
// a page it has not touched yet is not in its page tables, and the reads
// that cannot fault (bpf_probe_read_user*) fail on it. These bring the pages
// in with bpf_copy_from_user, which may take the fault and sleep, one page
// at a time and only as far as the read needs, then read again. For
// sleepable programs only: the verifier refuses bpf_copy_from_user elsewhere.

static long (*bpf_copy_from_user)(void *dst, u32 size, const void *user_src) = (void *)148;
static long (*bpf_probe_read_user_str)(void *dst, u32 size, const void *src) = (void *)114;

struct user_pages_walk {
    u64 first_page;
    u64 address;
    char *dst; // copy_user_str's buffer; null when only faulting pages in
    u64 limit;
    s64 result;
};

CALLBACK long dtx_rt_step_user_page(u32 index, struct user_pages_walk *walk) {
    u64 page = walk->first_page + (u64)index * DTX_RT_PAGE_SIZE;
    u64 at = page > walk->address ? page : walk->address;
    char byte;
    // A page that cannot be read ends the walk: the read fails there anyway.
    if (bpf_copy_from_user(&byte, 1, (const void *)at) < 0)
        return 1;
    if (!walk->dst)
        return 0;
    walk->result =
        bpf_probe_read_user_str(walk->dst, (u32)walk->limit, (const void *)walk->address);
    return walk->result >= 0;
}

// The pages of [address, address + length): how many, from the first.
INLINE u32 user_pages(u64 address, u64 length, u64 *first) {
    if (length == 0 || address + length - 1 < address)
        return 0;
    *first = address & ~(u64)(DTX_RT_PAGE_SIZE - 1);
    u64 last = (address + length - 1) & ~(u64)(DTX_RT_PAGE_SIZE - 1);
    return (u32)((last - *first) / DTX_RT_PAGE_SIZE + 1);
}

// copyinstr() once bpf_probe_read_user_str(dst, limit, address) has failed:
// faults in the string's pages one by one, reading it again after each,
// until it reads. Returns what the last read returned (its length with the
// NUL, or a negative error). `limit` is at most the room at `dst`.
RUNTIME s64 dtx_rt_copy_user_str(char *dst, u64 limit, u64 address) {
    struct user_pages_walk walk = {0, address, dst, limit, -14}; // -EFAULT
    u32 pages = user_pages(address, limit, &walk.first_page);
    if (pages)
        bpf_loop(pages, dtx_rt_step_user_page, &walk, 0);
    return walk.result;
}

// Faults in every page of [address, address + length), in order, until one
// cannot be: before a read of all those bytes that cannot fault.
RUNTIME void dtx_rt_fault_in_user(u64 address, u64 length) {
    struct user_pages_walk walk = {0, address, 0, 0, 0};
    u32 pages = user_pages(address, length, &walk.first_page);
    if (pages)
        bpf_loop(pages, dtx_rt_step_user_page, &walk, 0);
}
