#include "providers/x86_instructions.h"

#include "libtrace/hex.h"

#include <llvm-c/Disassembler.h>
#include <llvm-c/Target.h>

#include <memory>
#include <mutex>

namespace dtx::providers {

namespace {

struct DisassemblerDeleter {
    void operator()(void *context) const { LLVMDisasmDispose(context); }
};

} // namespace

Status check_instruction_start(std::span<const uint8_t> code, uint64_t offset) {
    static std::once_flag initialized;
    std::call_once(initialized, [] {
        LLVMInitializeX86TargetInfo();
        LLVMInitializeX86TargetMC();
        LLVMInitializeX86Disassembler();
    });
    std::unique_ptr<void, DisassemblerDeleter> disassembler(
        LLVMCreateDisasm("x86_64-unknown-linux-gnu", nullptr, 0, nullptr, nullptr));
    if (!disassembler)
        return failure("the x86-64 disassembler is not available");
    if (offset >= code.size())
        return failure(trace::hex(offset) + " is beyond the function's " +
                       std::to_string(code.size()) + " bytes");
    uint64_t at = 0;
    char text[128];
    while (at < offset) {
        size_t length = LLVMDisasmInstruction(disassembler.get(), const_cast<uint8_t *>(&code[at]),
                                              code.size() - at, at, text, sizeof text);
        if (length == 0)
            return failure("the instruction at " + trace::hex(at) + " cannot be decoded");
        if (at + length > offset)
            return failure(trace::hex(offset) + " is inside the instruction at " + trace::hex(at) +
                           " (" + std::to_string(length) + " bytes)");
        at += length;
    }
    return {};
}

} // namespace dtx::providers
