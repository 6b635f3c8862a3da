// Debug info for the BPF object. LLVM's BPF backend turns a module's DWARF
// into the .BTF and .BTF.ext sections that libbpf and the kernel need:
//  - libbpf creates maps only from their BTF: a struct global in ".maps" whose
//    members encode the attributes the way libbpf's bpf_helpers.h macros do,
//      __uint(name, N)  ->  int (*name)[N]   (pointer to an array of N ints)
//      __type(name, T)  ->  T *name          (pointer to the type)
//  - the kernel needs a BTF FUNC and a func_info record for every function in
//    the object as soon as one exists (BPF-to-BPF calls, bpf_loop callbacks),
//    and a FUNC's parameters must be named;
//  - line info points at the D source, embedded in the debug info, so the
//    verifier log quotes D lines without reading a file.
// Every function the module defines must therefore go through
// define_program() or define_static_function(), and finalize() must run
// before the module is optimized.
#pragma once

#include "libtrace/error.h"

#include <linux/bpf.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class Constant;
class DIBuilder;
class DICompileUnit;
class DIFile;
class DILocation;
class DIType;
class Function;
class GlobalVariable;
class Module;
class Type;
} // namespace llvm

namespace dtx::codegen {

struct BtfStructField {
    std::string name;
    llvm::DIType *type = nullptr;
    uint64_t offset_bytes = 0;
};

// One BTF-defined map, as libbpf reads it from ".maps".
struct BpfMapDefinition {
    std::string name;
    bpf_map_type type = BPF_MAP_TYPE_HASH;
    uint32_t max_entries = 0;
    // __type(key, ...) / __type(value, ...); null for maps whose entries have
    // no BTF type (ring buffers, perf event arrays).
    llvm::DIType *key = nullptr;
    llvm::DIType *value = nullptr;
    // __uint(key_size, ...) / __uint(value_size, ...) for untyped entries
    // that still have a size (perf event arrays); 0 leaves them out.
    uint32_t key_size = 0;
    uint32_t value_size = 0;
    uint32_t map_flags = 0; // BPF_F_*; 0 leaves the attribute out
};

enum class GlobalDataSection {
    ReadOnly, // ".rodata": frozen at load, the verifier treats loads as constants
    Data,     // ".data": initialised, writable from BPF and from user space
};

class BpfDebugInfo {
public:
    // `source_name` and `source_text` are the D program's; line numbers given
    // to the functions below refer to `source_text`.
    BpfDebugInfo(llvm::Module &module, std::string_view source_name, std::string_view source_text);
    ~BpfDebugInfo();
    BpfDebugInfo(const BpfDebugInfo &) = delete;
    BpfDebugInfo &operator=(const BpfDebugInfo &) = delete;

    // Types of map keys, map values and global variables.
    llvm::DIType *integer_type(unsigned size_bytes, bool is_signed);
    llvm::DIType *char_array_type(uint64_t length);
    llvm::DIType *array_type(llvm::DIType *element, uint64_t count);
    llvm::DIType *pointer_type(llvm::DIType *pointee);
    // Fields at the offsets the code generator laid them out at.
    llvm::DIType *struct_type(std::string_view name, uint64_t size_bytes,
                              std::span<const BtfStructField> fields);

    // The map's global, whose address the code passes to map helpers.
    llvm::GlobalVariable *define_map(const BpfMapDefinition &map);

    // The "license" section the kernel checks before allowing GPL-only helpers.
    llvm::GlobalVariable *define_license(std::string_view license = "GPL");

    // A global variable that user space can set before loading
    // (dtx::trace::BpfObject::set_global_variable). Read a ReadOnly variable
    // with volatile loads: it is an IR constant, and LLVM would otherwise fold
    // its initial value into the code.
    llvm::GlobalVariable *define_global_variable(std::string_view name, llvm::DIType *type,
                                                 llvm::Constant *initial_value,
                                                 GlobalDataSection section);

    // An entry point: external linkage in `section`, from which libbpf derives
    // the program type and attach point ("raw_tracepoint/sys_enter",
    // "tracepoint/syscalls/sys_enter_openat", "uprobe", "perf_event", ...).
    void define_program(llvm::Function &function, std::string_view section, unsigned line = 0);

    // A function called from programs (a clause, a run-time helper, a
    // bpf_loop callback): internal linkage in ".text", where libbpf looks for
    // subprograms, and never inlined, so each clause is compiled once.
    void define_static_function(llvm::Function &function, unsigned line = 0);
    // A global subprogram: external linkage in ".text", never inlined, which
    // the kernel verifies once on its own rather than at each call site,
    // from its BTF prototype: `parameters` types the arguments (a pointer's
    // pointee sizes the memory it may use).
    void define_global_function(llvm::Function &function,
                                std::span<llvm::DIType *const> parameters);

    // A source position inside `function` (defined through this class) for
    // IRBuilder::SetCurrentDebugLocation. LLVM's verifier requires one on
    // every call to a function that has debug info.
    llvm::DILocation *location(const llvm::Function &function, unsigned line, unsigned column = 0);

    // Resolves the debug info; call once, after the last definition and before
    // BpfEmitter::optimize(). An error when a function defined here has a
    // type BTF cannot describe (a BPF function takes and returns only
    // integers and pointers): a mistake of the code generator's, not of the
    // D program's.
    Status finalize();

private:
    void describe_function(llvm::Function &function, unsigned line, bool is_local,
                           std::span<llvm::DIType *const> parameters = {});
    llvm::DIType *type_of_ir_value(llvm::Type *type);
    llvm::DIType *uint_attribute(uint32_t value);

    llvm::Module &module_;
    std::unique_ptr<llvm::DIBuilder> builder_;
    llvm::DIFile *file_ = nullptr;
    llvm::DICompileUnit *unit_ = nullptr;
    std::optional<Error> type_error_; // the first type type_of_ir_value() could not describe
};

} // namespace dtx::codegen
