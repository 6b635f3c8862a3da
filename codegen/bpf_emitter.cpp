#include "codegen/bpf_emitter.h"

#include <llvm-c/Target.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

namespace dtx::codegen {

namespace {

constexpr const char *kBpfTriple = "bpfel";
constexpr const char *kBpfCpu = "v3";

// LLVM cannot go on after a fatal error, which its BPF back end raises where
// a jump would pass the 32767 instructions a BPF jump reaches (a statement of
// a clause too large for one BPF function; the code generator splits clauses
// between statements, not inside one). Say so in D's terms before exiting,
// rather than LLVM's abort().
void on_fatal_error(void *, const char *reason, bool) {
    std::fflush(stdout);
    if (std::strstr(reason, "out of insn range"))
        std::fputs("dtx: a statement of a clause is too large for a BPF function: its code "
                   "jumps farther than the 32767 instructions a BPF jump reaches; split its "
                   "if/else or { } block into several clauses\n",
                   stderr);
    else
        std::fprintf(stderr, "dtx: the BPF back end failed: %s\n", reason);
    std::exit(1);
}

// Only the BPF target is needed; initialising all targets would cost start-up
// time for nothing.
void initialize_bpf_target() {
    static std::once_flag once;
    std::call_once(once, [] {
        LLVMInitializeBPFTargetInfo();
        LLVMInitializeBPFTarget();
        LLVMInitializeBPFTargetMC();
        LLVMInitializeBPFAsmPrinter();
    });
}

// Collects the context's diagnostics into a BpfEmitResult for as long as it
// lives, then gives the context its previous handler back.
class DiagnosticCollector {
public:
    DiagnosticCollector(llvm::LLVMContext &context, BpfEmitResult &result)
        : context_(context), previous_(context.getDiagnosticHandler()) {
        context_.setDiagnosticHandler(std::make_unique<Handler>(result));
    }
    ~DiagnosticCollector() { context_.setDiagnosticHandler(std::move(previous_)); }
    DiagnosticCollector(const DiagnosticCollector &) = delete;
    DiagnosticCollector &operator=(const DiagnosticCollector &) = delete;

private:
    struct Handler : llvm::DiagnosticHandler {
        explicit Handler(BpfEmitResult &result) : result(result) {}

        bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
            std::string text;
            llvm::raw_string_ostream stream(text);
            llvm::DiagnosticPrinterRawOStream printer(stream);
            info.print(printer);
            while (!text.empty() && text.back() == '\n')
                text.pop_back();
            switch (info.getSeverity()) {
            case llvm::DS_Error:
                result.errors.push_back(std::move(text));
                break;
            case llvm::DS_Warning:
                result.warnings.push_back(std::move(text));
                break;
            case llvm::DS_Remark:
            case llvm::DS_Note:
                break;
            }
            return true;
        }

        BpfEmitResult &result;
    };

    llvm::LLVMContext &context_;
    std::unique_ptr<llvm::DiagnosticHandler> previous_;
};

} // namespace

BpfEmitter::BpfEmitter() {
    initialize_bpf_target();
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kBpfTriple, error);
    if (!target)
        throw std::runtime_error("LLVM has no BPF target: " + error);
    target_machine_.reset(
        target->createTargetMachine(kBpfTriple, kBpfCpu, "", llvm::TargetOptions(), std::nullopt,
                                    std::nullopt, llvm::CodeGenOptLevel::Default));
    if (!target_machine_)
        throw std::runtime_error("cannot create a BPF target machine for CPU " +
                                 std::string(kBpfCpu));
}

BpfEmitter::~BpfEmitter() = default;

void BpfEmitter::configure_module(llvm::Module &module) const {
    module.setTargetTriple(target_machine_->getTargetTriple().str());
    module.setDataLayout(target_machine_->createDataLayout());
}

void BpfEmitter::optimize(llvm::Module &module) const {
    llvm::LoopAnalysisManager loop_analyses;
    llvm::FunctionAnalysisManager function_analyses;
    llvm::CGSCCAnalysisManager cgscc_analyses;
    llvm::ModuleAnalysisManager module_analyses;

    // Registered before the defaults so that it wins: with no library
    // functions known, loop idiom recognition cannot create memset/memcpy
    // calls of variable length, which the BPF backend rejects.
    llvm::TargetLibraryInfoImpl no_libcalls(target_machine_->getTargetTriple());
    no_libcalls.disableAllFunctions();
    function_analyses.registerPass([&] { return llvm::TargetLibraryAnalysis(no_libcalls); });

    // Constructing the PassBuilder with the target machine registers the BPF
    // backend's IR passes (CO-RE, IR peephole, ...) into the pipeline.
    llvm::PassBuilder builder(target_machine_.get());
    builder.registerModuleAnalyses(module_analyses);
    builder.registerCGSCCAnalyses(cgscc_analyses);
    builder.registerFunctionAnalyses(function_analyses);
    builder.registerLoopAnalyses(loop_analyses);
    builder.crossRegisterProxies(loop_analyses, function_analyses, cgscc_analyses, module_analyses);

    llvm::ModulePassManager passes =
        builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
    passes.run(module, module_analyses);
}

BpfEmitResult BpfEmitter::emit_object(llvm::Module &module) const {
    return emit(module, false);
}

BpfEmitResult BpfEmitter::emit_assembly(const llvm::Module &module) const {
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(module);
    return emit(*copy, true);
}

BpfEmitResult BpfEmitter::emit(llvm::Module &module, bool assembly) const {
    BpfEmitResult result;
    std::string verifier_message;
    llvm::raw_string_ostream verifier_stream(verifier_message);
    if (llvm::verifyModule(module, &verifier_stream)) {
        result.errors.push_back("invalid LLVM IR: " + verifier_message);
        return result;
    }

    DiagnosticCollector collector(module.getContext(), result);
    llvm::ScopedFatalErrorHandler fatal_errors(on_fatal_error);
    llvm::SmallVector<char, 0> buffer;
    llvm::raw_svector_ostream stream(buffer);
    llvm::legacy::PassManager passes;
    auto file_type =
        assembly ? llvm::CodeGenFileType::AssemblyFile : llvm::CodeGenFileType::ObjectFile;
    if (target_machine_->addPassesToEmitFile(passes, stream, nullptr, file_type)) {
        result.errors.push_back("the BPF target cannot emit this file type");
        return result;
    }
    passes.run(module);
    if (result.ok())
        result.output.assign(buffer.begin(), buffer.end());
    return result;
}

std::string module_to_string(const llvm::Module &module) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    module.print(stream, nullptr);
    return text;
}

} // namespace dtx::codegen
