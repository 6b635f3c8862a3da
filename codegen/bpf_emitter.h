// The back end of the compiler: an llvm::Module in, a relocatable BPF ELF object
// (with .BTF and .BTF.ext) out, in memory, through LLVM's BPF backend in process.
//
// The code generator only produces IR; the pipeline is
//   Result<BpfEmitter> emitter = BpfEmitter::create(); // once per process is enough
//   emitter->configure_module(module);       // before generating IR
//   ... generate IR, BpfDebugInfo::finalize() ...
//   emitter->optimize(module);               // O2, with the BPF backend's IR passes
//   BpfEmitResult object = emitter->emit_object(module);
// and the image goes to dtx::trace::BpfObject.
#pragma once

#include "libtrace/error.h"

#include <functional>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace dtx::codegen {

// What LLVM said while emitting. The BPF backend reports constructs it cannot
// lower (a stack frame over 512 bytes, more than five call arguments, a call to
// an unknown function) as errors on the module's LLVMContext; they land here
// instead of LLVM's default handler, which would print them and exit().
struct BpfEmitResult {
    std::vector<char> output; // ELF object or assembly text; empty if there are errors
    std::vector<std::string> errors;
    std::vector<std::string> warnings;

    bool ok() const { return errors.empty(); }
};

class BpfEmitter {
public:
    // Target: little-endian BPF, CPU v3 (32-bit sub-registers and jumps,
    // kernel >= 5.1). Not thread-safe: one emitter per compiling thread. An
    // error when the LLVM dtx is linked with has no BPF target or cannot
    // make a target machine for it.
    static Result<BpfEmitter> create();
    ~BpfEmitter();
    BpfEmitter(BpfEmitter &&) noexcept;
    BpfEmitter &operator=(BpfEmitter &&) noexcept;
    BpfEmitter(const BpfEmitter &) = delete;
    BpfEmitter &operator=(const BpfEmitter &) = delete;

    // Gives the module BPF's triple and data layout. Do it before generating
    // IR so that type sizes and alignments the generator asks for are BPF's.
    void configure_module(llvm::Module &module) const;

    // Runs the O2 pipeline in place, including the BPF backend's own IR passes.
    // Library-call idioms are disabled: a loop turned into a memset() call
    // cannot be lowered to BPF.
    void optimize(llvm::Module &module) const;

    // Verifies the module and lowers it to an ELF object. The module may be
    // changed by the backend's IR passes; emit each module once.
    BpfEmitResult emit_object(llvm::Module &module) const;

    // BPF assembly of a copy of the module (for --dump=bpf), so the module
    // itself can still be passed to emit_object().
    BpfEmitResult emit_assembly(const llvm::Module &module) const;

private:
    explicit BpfEmitter(std::unique_ptr<llvm::TargetMachine> target_machine);
    BpfEmitResult emit(llvm::Module &module, bool assembly) const;

    std::unique_ptr<llvm::TargetMachine> target_machine_;
};

// LLVM ends the process on an error it cannot go on from (report_fatal_error:
// a jump farther than a BPF jump reaches, an instruction it cannot select)
// and on a failed allocation, with abort() unless a handler takes over; a
// handler must not return. While a scope lives, such an error is given to
// `report` (a reason in LLVM's words), which should say it in the program's
// terms; then the process exits with status 1. Out of memory, it only says
// so and exits 1. Throwing instead would cross LLVM's frames, built without
// exceptions: their destructors would not run, leaving LLVM's objects
// half-changed and their memory leaked. One scope at a time.
class LlvmFatalErrorScope {
public:
    explicit LlvmFatalErrorScope(std::function<void(std::string_view reason)> report);
    ~LlvmFatalErrorScope();
    LlvmFatalErrorScope(const LlvmFatalErrorScope &) = delete;
    LlvmFatalErrorScope &operator=(const LlvmFatalErrorScope &) = delete;

private:
    std::function<void(std::string_view)> report_;
    std::new_handler previous_new_handler_;
};

// The module as LLVM IR text (for --dump=ir).
std::string module_to_string(const llvm::Module &module);

} // namespace dtx::codegen
