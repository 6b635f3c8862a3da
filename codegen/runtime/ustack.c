// User stacks (codegen/lower_calls.cpp): the walk behind ustack(),
// ustackdepth and ucaller, dtx_rt_unwind, a global function.

#include "dtx_runtime.h"

// ---- User stacks ---------------------------------------------------------------

// ustack(), ustackdepth and ucaller walk the current thread's user stack from
// the call-frame information of the files its code is in (.eh_frame,
// .debug_frame), as tables user space builds once per file
// (libtrace/unwind_table.h) and loads into the array map `dtx_unwind_rows`:
// a file's rows sorted by file offset, found through the hash map
// `dtx_unwind_files` by the file's inode and device. Code whose file has no
// table yet is asked for once (an UnwindRequest record in `dtx_output`, see
// libtrace/program_description.h)
// and, like code its table does not cover, is walked by frame pointers until
// the table is there. A return address outside executable mappings ends the
// stack with DTX_RT_USTACK_TRUNCATED rather than a frame that means nothing;
// code outside any file (a JIT's, the vDSO) and the outermost frame (whose
// return address its CFI leaves undefined) end it without.

static void *(*bpf_get_current_task_btf)(void) = (void *)158;
static void *(*bpf_task_pt_regs)(void *task) = (void *)175;
static long (*bpf_find_vma)(void *task, u64 address, void *callback, void *context,
                            u64 flags) = (void *)180;
static long (*bpf_map_delete_elem)(void *map, const void *key) = (void *)3;

#define BPF_NOEXIST 1
// codegen::kUnwindFrames: ustack()'s most (the ustackframes option's).
#define DTX_RT_USTACK_FRAMES 127
#define DTX_RT_VM_EXEC 4
// trace::kUserStackTruncated: the frame that says the stack went on.
#define DTX_RT_USTACK_TRUNCATED 0xfffffffffffffffeULL
// trace::kUnwindRequestEpid and trace::kMappingRecordEpid.
#define DTX_RT_UNWIND_REQUEST_EPID 0xfffffffeU
#define DTX_RT_MAPPING_RECORD_EPID 0xfffffffdU

// trace::UnwindRow and its rules.
struct unwind_row {
    u32 offset;
    int cfa_offset;
    short ra_offset;
    short fp_offset;
    u8 cfa_rule, ra_rule, fp_rule, flags;
};
_Static_assert(sizeof(struct unwind_row) == 16, "trace::UnwindRow's size");
enum { CFA_NONE, CFA_SP, CFA_FP, CFA_PLT, CFA_DEREF_SP };
enum { RA_UNDEFINED, RA_CFA, RA_SP };
enum { FP_SAME, FP_CFA, FP_SP, FP_UNKNOWN };
#define UNWIND_SIGNAL_FRAME 1

// trace::UnwindFileKey and trace::UnwindFile.
struct unwind_file_key {
    u64 inode, device;
};
struct unwind_file {
    u32 first_row, rows, state, unused;
};
enum { FILE_ASKED, FILE_TABLE, FILE_NO_TABLE };

// Where the kernel keeps what the walk reads of a mapping, from its BTF:
// the code generator defines this constant (.rodata) for each program, and
// LLVM folds the offsets into the loads.
struct unwind_layout {
    u64 vma_start, vma_end, vma_flags, vma_pgoff, vma_file;
    u64 file_inode, inode_number, inode_super_block, super_block_device;
};
extern const struct unwind_layout dtx_unwind_layout;

// The x86-64 struct pt_regs members the walk starts from.
struct user_regs {
    u64 r15, r14, r13, r12, bp, bx, r11, r10, r9, r8, ax, cx, dx, si, di, orig_ax, ip, cs, flags,
        sp, ss;
};

// A mapping holding code, as the walk uses it.
struct unwind_mapping {
    u64 start, end, flags, file_start; // file_start: the file offset at `start`
    u64 inode, device;                 // inode 0: no file
    u64 seen;                          // when bpf_find_vma last gave it (bpf_ktime_get_ns)
    u64 used;                          // when a walk last went through it
};

// The mappings a thread's stacks went through lately, in its task storage
// (the map `dtx_unwind_mappings`): bpf_find_vma, which the walk would call
// for each module, works once per program run where interrupts are off (in
// profile-N's), as the mm lock it takes is then let go later, by an
// irq_work; the cache gives the walk the others. An entry is used as it is
// for DTX_RT_MAPPING_FRESH ns, then checked again (a mapping that went with
// munmap is then forgotten), and used as it is where it cannot be checked.
// A new mapping takes the place of the one least recently used, so that
// those every stack goes through (the executable's, the C library's) stay
// while a library loaded and unloaded in a loop comes and goes.
#define DTX_RT_MAPPINGS 16
#define DTX_RT_MAPPING_FRESH 1000000000ULL
#define DTX_RT_EBUSY 16
struct recent_mappings {
    struct unwind_mapping recent[DTX_RT_MAPPINGS];
};
_Static_assert(sizeof(struct recent_mappings) == 16 * 8 * 8, "codegen::kRecentMappingsSize");

// A file mapping the walk found, told to user space once per process, start
// and file (trace::MappingRecord): the consumer then names the addresses in
// it from that file even after the process unmapped it or exited, which the
// process's maps read later would not tell. The map `dtx_unwind_announced`
// (an LRU hash of struct announced_mapping) holds what was told.
struct announced_mapping {
    u32 pid, unused;
    u64 start, inode;
};

// The program's maps, which the code generator defines with these names.
extern char dtx_unwind_rows[], dtx_unwind_files[], dtx_unwind_mappings[], dtx_unwind_announced[],
    dtx_output[];
static void *(*bpf_task_storage_get)(void *map, void *task, void *value, u64 flags) = (void *)156;
#define BPF_LOCAL_STORAGE_GET_F_CREATE 1

// The walk, in the memory the caller gives dtx_rt_unwind (scratch): the
// verifier does not follow what memory holds as it follows the stack, so
// that the states at the start of each step are the same and the loop's
// verification converges at once.
// How the walk came to pc: WALK_EXACT, pc is the instruction itself (the
// first frame, a signal's), not a return address; WALK_FROM_CFI, a table's
// row gave it (or it is the first): it is code, not a guess.
#define WALK_EXACT 1
#define WALK_FROM_CFI 2
struct unwind_walk {
    u64 room; // frame's length
    u64 pc, sp, fp;
    u64 how;   // WALK_EXACT | WALK_FROM_CFI
    u64 depth; // frames written, the truncation mark aside
    struct unwind_mapping mapping; // of pc, once found
    u64 first_row, rows_in_table;  // of the mapping's file; rows_in_table 0: no table
    u64 frame[DTX_RT_USTACK_FRAMES];
};

_Static_assert(sizeof(struct unwind_walk) == 16 * 8 + DTX_RT_USTACK_FRAMES * 8,
               "codegen::kUnwindWalkSize");

struct unwind_loop {
    struct unwind_walk *walk;
};

#define FIELD(pointer, offset, type) (*(type *)((char *)(pointer) + (offset)))

CALLBACK long dtx_rt_unwind_mapping(void *task, void *vma, struct unwind_mapping *mapping) {
    (void)task;
    const struct unwind_layout *o = &dtx_unwind_layout;
    mapping->start = FIELD(vma, o->vma_start, u64);
    mapping->end = FIELD(vma, o->vma_end, u64);
    mapping->flags = FIELD(vma, o->vma_flags, u64);
    mapping->file_start = FIELD(vma, o->vma_pgoff, u64) * DTX_RT_PAGE_SIZE;
    mapping->inode = 0;
    mapping->device = 0;
    void *file = FIELD(vma, o->vma_file, void *);
    if (!file)
        return 0;
    void *inode = FIELD(file, o->file_inode, void *);
    if (!inode)
        return 0;
    mapping->inode = FIELD(inode, o->inode_number, u64);
    void *super_block = FIELD(inode, o->inode_super_block, void *);
    if (super_block)
        mapping->device = FIELD(super_block, o->super_block_device, u32);
    return 0;
}

// Tells user space of the file mapping `m` of the current process, once.
INLINE void announce_mapping(const struct unwind_mapping *m, u32 pid) {
    struct announced_mapping key = {pid, 0, m->start, m->inode};
    u64 end = m->end;
    if (bpf_map_update_elem(dtx_unwind_announced, &key, &end, BPF_NOEXIST) != 0)
        return;
    struct {
        u32 epid;
        u16 cpu, speculation;
        u32 pid, unused;
        u64 start, end, file_start, inode, device;
    } record = {DTX_RT_MAPPING_RECORD_EPID,
                (u16)bpf_get_smp_processor_id(),
                0,
                pid,
                0,
                m->start,
                m->end,
                m->file_start,
                m->inode,
                m->device};
    if (bpf_ringbuf_output(dtx_output, &record, sizeof(record), 0) != 0)
        bpf_map_delete_elem(dtx_unwind_announced, &key);
}

// The mapping holding pc into walk->mapping: 1 when there is one and it
// holds code, 0 when there is none or it does not, -1 when it cannot be
// known now (the lookup is busy and the thread's cache does not have it).
INLINE long find_mapping(struct unwind_walk *walk, u64 pc) {
    struct unwind_mapping *m = &walk->mapping;
    void *task = bpf_get_current_task_btf();
    struct recent_mappings *recent =
        bpf_task_storage_get(dtx_unwind_mappings, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
    struct unwind_mapping *cached = 0, *oldest = 0;
    u64 now = bpf_ktime_get_ns();
    if (recent)
        for (int i = 0; i < DTX_RT_MAPPINGS; i++) {
            struct unwind_mapping *entry = &recent->recent[i];
            if (pc >= entry->start && pc < entry->end) {
                cached = entry;
                break;
            }
            if (!oldest || entry->used < oldest->used)
                oldest = entry;
        }
    if (cached) {
        cached->used = now;
        if (now - cached->seen < DTX_RT_MAPPING_FRESH) {
            *m = *cached;
            return (m->flags & DTX_RT_VM_EXEC) != 0;
        }
    }
    struct unwind_mapping mapping = {0}; // bpf_find_vma's callback writes to the stack only
    long looked_up = bpf_find_vma(task, pc, dtx_rt_unwind_mapping, &mapping, 0);
    if (looked_up == -DTX_RT_EBUSY) {
        if (!cached)
            return -1;
        *m = *cached;
        return (m->flags & DTX_RT_VM_EXEC) != 0;
    }
    if (looked_up != 0)
        return 0;
    mapping.seen = now;
    mapping.used = now;
    *m = mapping;
    if (!cached)
        cached = oldest;
    if (cached)
        *cached = *m;
    if (m->inode && (m->flags & DTX_RT_VM_EXEC))
        announce_mapping(m, (u32)(bpf_get_current_pid_tgid() >> 32));
    return (m->flags & DTX_RT_VM_EXEC) != 0;
}

// The table of the mapping's file: asks user space for it the first time
// the file is seen (a request that does not reach it is asked again).
INLINE void find_table(struct unwind_walk *walk) {
    struct unwind_mapping *m = &walk->mapping;
    walk->first_row = 0;
    walk->rows_in_table = 0;
    if (!m->inode)
        return;
    struct unwind_file_key key = {m->inode, m->device};
    struct unwind_file *file = bpf_map_lookup_elem(dtx_unwind_files, &key);
    if (file) {
        if (file->state == FILE_TABLE) {
            walk->first_row = file->first_row;
            walk->rows_in_table = file->rows;
        }
        return;
    }
    struct unwind_file asked = {0, 0, FILE_ASKED, 0};
    if (bpf_map_update_elem(dtx_unwind_files, &key, &asked, BPF_NOEXIST) != 0)
        return;
    struct {
        u32 epid;
        u16 cpu, speculation;
        u32 pid, unused;
        u64 start, end, inode, device;
    } request = {DTX_RT_UNWIND_REQUEST_EPID,
                 (u16)bpf_get_smp_processor_id(),
                 0,
                 (u32)(bpf_get_current_pid_tgid() >> 32),
                 0,
                 m->start,
                 m->end,
                 m->inode,
                 m->device};
    if (bpf_ringbuf_output(dtx_output, &request, sizeof(request), BPF_RB_FORCE_WAKEUP) != 0)
        bpf_map_delete_elem(dtx_unwind_files, &key);
}

// The row covering `offset` in the mapping's table, or null: a binary
// search in a loop of its own (a bpf_loop callback would cost a call and a return each
// step, which kernels that mitigate returns make slow), whose two sides
// leave the same state, so that the verifier merges them at each step.
#define DTX_RT_ROW_SEARCH_STEPS 32
INLINE struct unwind_row *find_row(struct unwind_walk *walk, u64 offset) {
    u32 first = (u32)walk->first_row;
    struct unwind_row *row = bpf_map_lookup_elem(dtx_unwind_rows, &first);
    if (!row || row->offset > offset)
        return 0;
    u64 low = walk->first_row, high = walk->first_row + walk->rows_in_table;
    for (int step = 0; step < DTX_RT_ROW_SEARCH_STEPS; step++) {
        if (low + 1 >= high)
            break;
        u32 middle = (u32)((low + high) / 2);
        struct unwind_row *at = bpf_map_lookup_elem(dtx_unwind_rows, &middle);
        if (!at || at->offset > offset)
            high = middle;
        else
            low = middle;
    }
    u32 found = (u32)low;
    return bpf_map_lookup_elem(dtx_unwind_rows, &found);
}

INLINE u64 read_user_word(u64 address, long *failed) {
    u64 value = 0;
    if (bpf_probe_read_user(&value, sizeof(value), (const void *)address) != 0)
        *failed = 1;
    return value;
}

// The caller's registers by the frame-pointer chain: 1 when it has them,
// 0 at its end, -1 when the chain cannot be followed.
INLINE long frame_pointer_step(struct unwind_walk *walk) {
    u64 fp = walk->fp;
    if (fp == 0)
        return 0;
    if (fp < walk->sp || (fp & 7))
        return -1;
    u64 saved[2];
    if (bpf_probe_read_user(saved, sizeof(saved), (const void *)fp) != 0)
        return -1;
    walk->fp = saved[0];
    walk->pc = saved[1];
    walk->sp = fp + 16;
    walk->how = 0;
    return saved[1] != 0;
}

// The caller's registers by the row: as frame_pointer_step.
INLINE long row_step(struct unwind_walk *walk, const struct unwind_row *row) {
    u64 sp = walk->sp, fp = walk->fp, cfa;
    long failed = 0;
    switch (row->cfa_rule) {
    case CFA_SP:
        cfa = sp + row->cfa_offset;
        break;
    case CFA_FP:
        cfa = fp + row->cfa_offset;
        break;
    case CFA_PLT:
        cfa = sp + row->cfa_offset + ((walk->pc & 15) >= (u64)(row->flags >> 4) ? 8 : 0);
        break;
    case CFA_DEREF_SP:
        cfa = read_user_word(sp + row->cfa_offset, &failed);
        break;
    default:
        return frame_pointer_step(walk);
    }
    u64 ra;
    const int adjacent =
        row->ra_rule == RA_CFA && row->fp_rule == FP_CFA && row->fp_offset + 8 == row->ra_offset;
    if (adjacent) {
        // The usual frame of code with a frame pointer: both in one read.
        u64 saved[2];
        if (bpf_probe_read_user(saved, sizeof(saved), (const void *)(cfa + row->fp_offset)) != 0)
            return -1;
        fp = saved[0];
        ra = saved[1];
    } else if (row->ra_rule == RA_CFA)
        ra = read_user_word(cfa + row->ra_offset, &failed);
    else if (row->ra_rule == RA_SP)
        ra = read_user_word(sp + row->ra_offset, &failed);
    else
        return 0; // the outermost frame
    if (row->fp_rule == FP_CFA && !adjacent)
        fp = read_user_word(cfa + row->fp_offset, &failed);
    else if (row->fp_rule == FP_SP)
        fp = read_user_word(sp + row->fp_offset, &failed);
    else if (row->fp_rule == FP_UNKNOWN)
        fp = 0;
    if (failed)
        return -1;
    // The stack is walked towards its base, except into a signal's
    // (which may be on another stack).
    if (cfa <= sp && !(row->flags & UNWIND_SIGNAL_FRAME))
        return -1;
    walk->pc = ra;
    walk->sp = cfa;
    walk->fp = fp;
    walk->how = WALK_FROM_CFI | (row->flags & UNWIND_SIGNAL_FRAME ? WALK_EXACT : 0);
    return ra != 0;
}

CALLBACK long dtx_rt_unwind_step(u32 index, struct unwind_loop *loop) {
    struct unwind_walk *walk = loop->walk;
    u64 i = unlinked(index);
    if (i >= walk->room || i >= DTX_RT_USTACK_FRAMES)
        return 1;
    u64 pc = walk->pc;
    struct unwind_mapping *m = &walk->mapping;
    if (pc < m->start || pc >= m->end) {
        long found = find_mapping(walk, pc);
        if (found <= 0) {
            m->start = m->end = 0;
            // Not code: what led here was not a frame. Code of a mapping
            // not known now ends the walk after it when its table gave it.
            u64 kept = i == 0 || (found < 0 && (walk->how & WALK_FROM_CFI));
            walk->frame[i] = kept ? pc : DTX_RT_USTACK_TRUNCATED;
            if (kept) {
                walk->depth = i + 1;
                u64 next = i + 1;
                barrier_var(next);
                if (found < 0 && next < walk->room && next < DTX_RT_USTACK_FRAMES)
                    walk->frame[next] = DTX_RT_USTACK_TRUNCATED;
            }
            return 1;
        }
        find_table(walk);
    }
    walk->frame[i] = pc;
    walk->depth = i + 1;
    if (!m->inode)
        return 1;
    long step;
    if (walk->rows_in_table) {
        u64 offset = pc - m->start + m->file_start - (walk->how & WALK_EXACT ? 0 : 1);
        struct unwind_row *row = find_row(walk, offset);
        step = row ? row_step(walk, row) : frame_pointer_step(walk);
    } else {
        step = frame_pointer_step(walk);
    }
    u64 next = i + 1;
    barrier_var(next);
    if (step < 0 && next < walk->room && next < DTX_RT_USTACK_FRAMES)
        walk->frame[next] = DTX_RT_USTACK_TRUNCATED;
    return step <= 0;
}

// The current thread's user stack into walk->frame[0 .. room) (room at
// most DTX_RT_USTACK_FRAMES; the caller zeroes them): program counters from
// the innermost, DTX_RT_USTACK_TRUNCATED last where it could not be
// followed further. Returns how many frames it found (0 in a kernel
// thread). A global function, which the kernel verifies once in each
// program whatever its call sites: the walk is the largest thing it
// verifies.
GLOBAL s64 dtx_rt_unwind(struct unwind_walk *walk, u64 room) {
    if (!walk)
        return 0;
    struct user_regs *regs = bpf_task_pt_regs(bpf_get_current_task_btf());
    if (!regs || (regs->cs & 3) != 3)
        return 0;
    walk->room = room;
    walk->pc = regs->ip;
    walk->sp = regs->sp;
    walk->fp = regs->bp;
    walk->how = WALK_EXACT | WALK_FROM_CFI;
    walk->depth = 0;
    walk->mapping.start = walk->mapping.end = 0;
    struct unwind_loop loop = {walk};
    bpf_loop(DTX_RT_USTACK_FRAMES, dtx_rt_unwind_step, &loop, 0);
    return (s64)walk->depth;
}
