// Files and paths: d_path() of a struct path, the current process's cwd and
// root, and the D library's helper behind fileinfo_t's fi_mount. Each path
// is the BPF run-time library's dentry walk (dtx_rt_dentry_path), seen from
// the current process's root as the kernel's d_path() sees it.
#include "codegen/builtins.h"
#include "codegen/functions/builder.h"
#include "codegen/functions/function.h"

#include <linux/bpf.h>

namespace dtx::sema {

namespace {

using codegen::ClauseState;
using codegen::FunctionBuilder;
using codegen::Value;

struct PathOffsets {
    uint64_t fs, pwd, root, mnt, dentry;
};

std::optional<PathOffsets> path_offsets(FunctionBuilder &l, const ast::Expr &at) {
    std::optional<uint64_t> fs = l.kernel_member_offset(at, "task_struct", "fs");
    std::optional<uint64_t> pwd = l.kernel_member_offset(at, "fs_struct", "pwd");
    std::optional<uint64_t> root = l.kernel_member_offset(at, "fs_struct", "root");
    std::optional<uint64_t> mnt = l.kernel_member_offset(at, "path", "mnt");
    std::optional<uint64_t> dentry = l.kernel_member_offset(at, "path", "dentry");
    if (!fs || !pwd || !root || !mnt || !dentry)
        return std::nullopt;
    return PathOffsets{*fs, *pwd, *root, *mnt, *dentry};
}

// The text of (dentry, mount) seen from (root dentry, root mount); a root
// of 0 walks to the top of the namespace.
Value walk(FunctionBuilder &l, const ast::Expr &at, ClauseState &state, llvm::Value *dentry,
           llvm::Value *mount, llvm::Value *root_dentry, llvm::Value *root_mount) {
    llvm::Value *offsets = l.path_offsets(at);
    if (!offsets)
        return {l.string_literal(""), at.type};
    llvm::Value *dst = l.scratch(state, uint32_t(l.strsize()));
    llvm::Value *request = l.scratch(state, uint32_t(32 + 3 * l.strsize()));
    llvm::Value *start[] = {dentry, mount, root_dentry, root_mount};
    for (unsigned i = 0; i < 4; i++)
        l.store64(start[i], l.at(request, 8 * i));
    l.runtime_call("dtx_rt_dentry_path", {dst, request, offsets, l.const64(l.strsize())});
    return {dst, at.type};
}

// The current process's root directory (dentry, mount), as d_path() starts.
std::pair<llvm::Value *, llvm::Value *> process_root(FunctionBuilder &l, ClauseState &state,
                                                     const PathOffsets &o) {
    llvm::Value *fs =
        l.read_kernel_quietly(state, l.ir().CreateAdd(l.current_task(state), l.const64(o.fs)));
    return {l.read_kernel_quietly(state, l.ir().CreateAdd(fs, l.const64(o.root + o.dentry))),
            l.read_kernel_quietly(state, l.ir().CreateAdd(fs, l.const64(o.root + o.mnt)))};
}

// cwd and root: cwd seen from the process's root, root from the namespace's
// (a chrooted process's root is not "/").
Value fs_path(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state, bool root_directory) {
    std::optional<PathOffsets> o = path_offsets(l, expr);
    if (!o)
        return {l.string_literal(""), expr.type};
    llvm::Value *fs =
        l.read_kernel_quietly(state, l.ir().CreateAdd(l.current_task(state), l.const64(o->fs)));
    const uint64_t which = root_directory ? o->root : o->pwd;
    llvm::Value *dentry =
        l.read_kernel_quietly(state, l.ir().CreateAdd(fs, l.const64(which + o->dentry)));
    llvm::Value *mount =
        l.read_kernel_quietly(state, l.ir().CreateAdd(fs, l.const64(which + o->mnt)));
    if (root_directory)
        return walk(l, expr, state, dentry, mount, l.const64(0), l.const64(0));
    auto [root_dentry, root_mount] = process_root(l, state, *o);
    return walk(l, expr, state, dentry, mount, root_dentry, root_mount);
}

// d_path(struct path *): the path's text, seen from the current process's root.
Value lower_d_path(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    std::optional<PathOffsets> o = path_offsets(l, call);
    if (!o)
        return {l.string_literal(""), call.type};
    // The struct path itself must be readable: a bad pointer is an
    // invalid-address fault, as in dtrace.
    llvm::Value *path = l.lower_scalar(*call.arguments.at(0), state);
    llvm::Value *words = l.scratch(state, 16);
    l.read_memory(state, words, l.const64(8), l.ir().CreateAdd(path, l.const64(o->dentry)),
                  /*user=*/false);
    l.read_memory(state, l.at(words, 8), l.const64(8), l.ir().CreateAdd(path, l.const64(o->mnt)),
                  /*user=*/false);
    llvm::Value *dentry = l.load64(words);
    llvm::Value *mount = l.load64(l.at(words, 8));
    auto [root_dentry, root_mount] = process_root(l, state, *o);
    return walk(l, call, state, dentry, mount, root_dentry, root_mount);
}

// _dtx_mountpoint(struct vfsmount *): where the mount is mounted (its root
// dentry's path), for fileinfo_t's fi_mount.
Value lower_mountpoint(FunctionBuilder &l, const ast::Call &call, ClauseState &state, bool) {
    std::optional<PathOffsets> o = path_offsets(l, call);
    std::optional<uint64_t> mount_root = l.kernel_member_offset(call, "vfsmount", "mnt_root");
    if (!o || !mount_root)
        return {l.string_literal(""), call.type};
    llvm::Value *mount = l.lower_scalar(*call.arguments.at(0), state);
    llvm::Value *dentry =
        l.read_kernel_quietly(state, l.ir().CreateAdd(mount, l.const64(*mount_root)));
    auto [root_dentry, root_mount] = process_root(l, state, *o);
    return walk(l, call, state, dentry, mount, root_dentry, root_mount);
}

constexpr auto S = FunctionClass::Subroutine;

constexpr FunctionDescriptor kFiles[] = {
    describe("_dtx_mountpoint", S, "string", {pointer()}, lower_mountpoint),
    describe("d_path", S, "string", {pointer()}, lower_d_path),
};

} // namespace

codegen::Value lower_cwd(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return fs_path(l, expr, state, false);
}

codegen::Value lower_root(FunctionBuilder &l, const ast::Expr &expr, ClauseState &state) {
    return fs_path(l, expr, state, true);
}

std::span<const FunctionDescriptor> file_functions() {
    return kFiles;
}

} // namespace dtx::sema
