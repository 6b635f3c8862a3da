#include "codegen/runtime_library.h"

#include "codegen/bpf_debuginfo.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

namespace dtx::codegen {

// codegen/runtime/*.c as one module of bitcode, linked at build time
// (codegen/CMakeLists.txt) and embedded by codegen/runtime/embed_bitcode.cmake.
extern const unsigned char kRuntimeBitcode[];
extern const size_t kRuntimeBitcodeSize;

namespace {

// Every function of the library, its bpf_loop callbacks included, is named so.
constexpr std::string_view kRuntimePrefix = "dtx_rt_";

bool is_runtime_name(llvm::StringRef name) {
    return name.starts_with(llvm::StringRef(kRuntimePrefix));
}

llvm::MemoryBufferRef runtime_bitcode() {
    return llvm::MemoryBufferRef(
        llvm::StringRef(reinterpret_cast<const char *>(kRuntimeBitcode), kRuntimeBitcodeSize),
        "dtx_runtime.bc");
}

std::string type_text(const llvm::Type *type) {
    std::string text;
    llvm::raw_string_ostream stream(text);
    type->print(stream);
    return text;
}

// Linker errors arrive as diagnostics on the context, whose default handler
// would print them and exit(); this one collects them while it lives.
class LinkDiagnostics {
public:
    explicit LinkDiagnostics(llvm::LLVMContext &context)
        : context_(context), previous_(context.getDiagnosticHandler()) {
        context_.setDiagnosticHandler(std::make_unique<Handler>(errors_));
    }
    ~LinkDiagnostics() { context_.setDiagnosticHandler(std::move(previous_)); }
    LinkDiagnostics(const LinkDiagnostics &) = delete;
    LinkDiagnostics &operator=(const LinkDiagnostics &) = delete;

    const std::string &errors() const { return errors_; }

private:
    struct Handler : llvm::DiagnosticHandler {
        explicit Handler(std::string &errors) : errors(errors) {}

        bool handleDiagnostics(const llvm::DiagnosticInfo &info) override {
            if (info.getSeverity() != llvm::DS_Error)
                return true;
            llvm::raw_string_ostream stream(errors);
            llvm::DiagnosticPrinterRawOStream printer(stream);
            if (!errors.empty())
                stream << "; ";
            info.print(printer);
            return true;
        }

        std::string &errors;
    };

    llvm::LLVMContext &context_;
    std::unique_ptr<llvm::DiagnosticHandler> previous_;
    std::string errors_;
};

} // namespace

Status link_runtime_library(llvm::Module &module, BpfDebugInfo &debug_info) {
    std::vector<llvm::Function *> wanted;
    for (llvm::Function &function : module)
        if (function.isDeclaration() && is_runtime_name(function.getName()))
            wanted.push_back(&function);
    if (wanted.empty())
        return {};

    llvm::Expected<std::unique_ptr<llvm::Module>> parsed =
        llvm::getLazyBitcodeModule(runtime_bitcode(), module.getContext());
    if (!parsed)
        return failure("cannot read the run-time library: " + llvm::toString(parsed.takeError()));
    std::unique_ptr<llvm::Module> library = std::move(*parsed);

    for (llvm::Function *declaration : wanted) {
        std::string name = declaration->getName().str();
        llvm::Function *definition = library->getFunction(name);
        if (!definition || definition->isDeclaration() || definition->hasLocalLinkage())
            return failure("the run-time library has no function '" + name + "'");
        if (definition->getFunctionType() != declaration->getFunctionType())
            return failure("run-time function '" + name + "' is declared as " +
                           type_text(declaration->getFunctionType()) +
                           ", but the library defines it as " +
                           type_text(definition->getFunctionType()));
    }

    // The library is compiled for BPF alone; the module's own triple and data
    // layout (the same target) keep the linker from warning or refusing.
    // Its module flags (wchar_size, frame-pointer) and compiler identification
    // have no business in dtx's objects.
    library->setTargetTriple(module.getTargetTriple());
    library->setDataLayout(module.getDataLayout());
    if (llvm::NamedMDNode *flags = library->getModuleFlagsMetadata())
        library->eraseNamedMetadata(flags);
    if (llvm::NamedMDNode *ident = library->getNamedMetadata("llvm.ident"))
        library->eraseNamedMetadata(ident);

    bool failed = false;
    std::string errors;
    {
        LinkDiagnostics diagnostics(module.getContext());
        failed = llvm::Linker::linkModules(module, std::move(library),
                                           llvm::Linker::Flags::LinkOnlyNeeded);
        errors = diagnostics.errors();
    }
    if (failed)
        return failure("cannot link the run-time library: " +
                       (errors.empty() ? std::string("unknown linker error") : errors));

    // What came in: the functions asked for and the bpf_loop callbacks they
    // use, all without debug info yet. The kernel wants BTF for every one.
    for (llvm::Function &function : module) {
        if (function.isDeclaration() || function.getSubprogram() ||
            !is_runtime_name(function.getName()))
            continue;
        if (function.getName() == "dtx_rt_unwind") {
            // Global: ustack.c's struct unwind_walk, then the room in it.
            llvm::DIType *walk = debug_info.struct_type(
                "dtx_rt_unwind_walk", kUnwindWalkSize,
                std::array{BtfStructField{
                    "words",
                    debug_info.array_type(debug_info.integer_type(8, false), kUnwindWalkSize / 8),
                    0}});
            llvm::DIType *parameters[] = {debug_info.pointer_type(walk),
                                          debug_info.integer_type(8, false)};
            debug_info.define_global_function(function, parameters);
            continue;
        }
        debug_info.define_static_function(function);
    }
    return {};
}

llvm::Function *runtime_function(llvm::Module &module, std::string_view name) {
    if (llvm::Function *existing = module.getFunction(llvm::StringRef(name)))
        return existing;
    // Lazily: only the one function's body is read, for its parameter names.
    llvm::Expected<std::unique_ptr<llvm::Module>> library =
        llvm::getLazyBitcodeModule(runtime_bitcode(), module.getContext());
    if (!library) {
        llvm::consumeError(library.takeError());
        return nullptr;
    }
    llvm::Function *definition = (*library)->getFunction(llvm::StringRef(name));
    if (!definition || definition->hasLocalLinkage() || !is_runtime_name(definition->getName()))
        return nullptr;
    auto *declaration =
        llvm::Function::Create(definition->getFunctionType(), llvm::GlobalValue::ExternalLinkage,
                               llvm::StringRef(name), module);
    if (llvm::Error error = definition->materialize()) {
        llvm::consumeError(std::move(error));
        return declaration;
    }
    for (llvm::Argument &argument : declaration->args())
        argument.setName(definition->getArg(argument.getArgNo())->getName());
    return declaration;
}

} // namespace dtx::codegen
