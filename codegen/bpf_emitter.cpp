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

#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <new>

namespace dtx::codegen {

namespace {

constexpr const char *kBpfTriple = "bpfel";
constexpr const char *kBpfCpu = "v3";

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

void on_fatal_error(void *report, const char *reason, bool) {
    (*static_cast<const std::function<void(std::string_view)> *>(report))(reason);
    std::exit(1);
}

// Memory ran out: saying more than this could need more of it.
void on_bad_alloc(void *, const char *, bool) {
    static constexpr char kMessage[] = "dtx: out of memory while compiling the program\n";
    (void)!write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
    std::exit(1);
}

} // namespace

// --- fatal errors ------------------------------------------------------------

LlvmFatalErrorScope::LlvmFatalErrorScope(std::function<void(std::string_view)> report)
    : report_(std::move(report)), previous_new_handler_(std::set_new_handler(nullptr)) {
    llvm::install_fatal_error_handler(on_fatal_error, &report_);
    llvm::install_bad_alloc_error_handler(on_bad_alloc);
    // operator new's failures (LLVM's objects, dtx's) to on_bad_alloc too,
    // instead of an uncaught std::bad_alloc.
    llvm::install_out_of_memory_new_handler();
}

LlvmFatalErrorScope::~LlvmFatalErrorScope() {
    std::set_new_handler(previous_new_handler_);
    llvm::remove_bad_alloc_error_handler();
    llvm::remove_fatal_error_handler();
}

// --- the emitter ----------------------------------------------------------------

Result<BpfEmitter> BpfEmitter::create() {
    initialize_bpf_target();
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kBpfTriple, error);
    if (!target)
        return failure("LLVM has no BPF target: " + error);
    std::unique_ptr<llvm::TargetMachine> target_machine(
        target->createTargetMachine(kBpfTriple, kBpfCpu, "", llvm::TargetOptions(), std::nullopt,
                                    std::nullopt, llvm::CodeGenOptLevel::Default));
    if (!target_machine)
        return failure("cannot create a BPF target machine for CPU " + std::string(kBpfCpu));
    return BpfEmitter(std::move(target_machine));
}

BpfEmitter::BpfEmitter(std::unique_ptr<llvm::TargetMachine> target_machine)
    : target_machine_(std::move(target_machine)) {}

BpfEmitter::~BpfEmitter() = default;
BpfEmitter::BpfEmitter(BpfEmitter &&) noexcept = default;
BpfEmitter &BpfEmitter::operator=(BpfEmitter &&) noexcept = default;

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
