#include "codegen/bpf_debuginfo.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace dtx::codegen {

namespace {

constexpr uint64_t kPointerBits = 64;

} // namespace

BpfDebugInfo::BpfDebugInfo(llvm::Module &module, std::string_view source_name,
                           std::string_view source_text)
    : module_(module), builder_(std::make_unique<llvm::DIBuilder>(module)) {
    // LLVM's IR readers drop debug info (hence BTF) from a module without a
    // "Debug Info Version", so a --dump=ir given to llc would lose it. DWARF 5
    // is what clang uses for BPF, and carries the embedded source.
    module_.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                          llvm::DEBUG_METADATA_VERSION);
    module_.addModuleFlag(llvm::Module::Max, "Dwarf Version", 5);
    // Always embed the source (empty for none): without it the BPF backend
    // would read a file of that name from the current directory.
    file_ = builder_->createFile(llvm::StringRef(source_name), "", std::nullopt,
                                 llvm::StringRef(source_text));
    // No DWARF name index (.debug_names): nothing reads it, and it costs
    // emission time.
    unit_ = builder_->createCompileUnit(
        llvm::dwarf::DW_LANG_C99, file_, "dtx", /*isOptimized=*/true, /*Flags=*/"", /*RV=*/0,
        /*SplitName=*/"", llvm::DICompileUnit::FullDebug, /*DWOId=*/0,
        /*SplitDebugInlining=*/false, /*DebugInfoForProfiling=*/false,
        llvm::DICompileUnit::DebugNameTableKind::None);
}

BpfDebugInfo::~BpfDebugInfo() = default;

llvm::DIType *BpfDebugInfo::integer_type(unsigned size_bytes, bool is_signed) {
    std::string name = (is_signed ? "int" : "uint") + std::to_string(size_bytes * 8) + "_t";
    return builder_->createBasicType(name, size_bytes * 8,
                                     is_signed ? llvm::dwarf::DW_ATE_signed
                                               : llvm::dwarf::DW_ATE_unsigned);
}

llvm::DIType *BpfDebugInfo::char_array_type(uint64_t length) {
    // A char element makes bpftool and BTF-aware printers show it as a string.
    llvm::DIType *character = builder_->createBasicType("char", 8, llvm::dwarf::DW_ATE_signed_char);
    return array_type(character, length);
}

llvm::DIType *BpfDebugInfo::array_type(llvm::DIType *element, uint64_t count) {
    llvm::Metadata *subrange = builder_->getOrCreateSubrange(0, static_cast<int64_t>(count));
    return builder_->createArrayType(element->getSizeInBits() * count, 0, element,
                                     builder_->getOrCreateArray({subrange}));
}

llvm::DIType *BpfDebugInfo::pointer_type(llvm::DIType *pointee) {
    return builder_->createPointerType(pointee, kPointerBits);
}

llvm::DIType *BpfDebugInfo::struct_type(std::string_view name, uint64_t size_bytes,
                                        std::span<const BtfStructField> fields) {
    // Alignment is left out (0): BTF has no place for it, and the offsets
    // already say where each field is.
    std::vector<llvm::Metadata *> members;
    for (const BtfStructField &field : fields)
        members.push_back(builder_->createMemberType(
            nullptr, field.name, file_, 0, field.type->getSizeInBits(), 0, field.offset_bytes * 8,
            llvm::DINode::FlagZero, field.type));
    return builder_->createStructType(unit_, llvm::StringRef(name), file_, 0, size_bytes * 8, 0,
                                      llvm::DINode::FlagZero, nullptr,
                                      builder_->getOrCreateArray(members));
}

llvm::DIType *BpfDebugInfo::uint_attribute(uint32_t value) {
    // __uint(name, value) is `int (*name)[value]`: libbpf reads the value
    // from the array's element count.
    llvm::DIType *element = integer_type(4, true);
    llvm::Metadata *subrange = builder_->getOrCreateSubrange(0, value);
    llvm::DIType *array = builder_->createArrayType(uint64_t{32} * value, 32, element,
                                                    builder_->getOrCreateArray({subrange}));
    return builder_->createPointerType(array, kPointerBits);
}

llvm::GlobalVariable *BpfDebugInfo::define_map(const BpfMapDefinition &map) {
    std::vector<std::pair<const char *, llvm::DIType *>> attributes;
    attributes.emplace_back("type", uint_attribute(map.type));
    attributes.emplace_back("max_entries", uint_attribute(map.max_entries));
    if (map.key)
        attributes.emplace_back("key", builder_->createPointerType(map.key, kPointerBits));
    if (map.value)
        attributes.emplace_back("value", builder_->createPointerType(map.value, kPointerBits));
    if (map.key_size)
        attributes.emplace_back("key_size", uint_attribute(map.key_size));
    if (map.value_size)
        attributes.emplace_back("value_size", uint_attribute(map.value_size));
    if (map.map_flags)
        attributes.emplace_back("map_flags", uint_attribute(map.map_flags));

    std::vector<llvm::Metadata *> members;
    for (size_t i = 0; i < attributes.size(); ++i) {
        auto [name, type] = attributes[i];
        members.push_back(builder_->createMemberType(nullptr, name, file_, 0, kPointerBits,
                                                     kPointerBits, i * kPointerBits,
                                                     llvm::DINode::FlagZero, type));
    }
    llvm::DIType *definition = builder_->createStructType(
        unit_, "", file_, 0, attributes.size() * kPointerBits, kPointerBits, llvm::DINode::FlagZero,
        nullptr, builder_->getOrCreateArray(members));

    // The IR value is all null pointers, as in C; only its BTF carries data.
    llvm::LLVMContext &context = module_.getContext();
    std::vector<llvm::Type *> slots(attributes.size(), llvm::PointerType::get(context, 0));
    auto *ir_type = llvm::StructType::get(context, slots);
    auto *global = new llvm::GlobalVariable(module_, ir_type, /*isConstant=*/false,
                                            llvm::GlobalValue::ExternalLinkage,
                                            llvm::ConstantAggregateZero::get(ir_type), map.name);
    global->setSection(".maps");
    global->setAlignment(llvm::Align(8));
    global->setDSOLocal(true);
    global->addDebugInfo(
        builder_->createGlobalVariableExpression(unit_, map.name, "", file_, 0, definition, false));
    return global;
}

llvm::GlobalVariable *BpfDebugInfo::define_license(std::string_view license) {
    llvm::Constant *text =
        llvm::ConstantDataArray::getString(module_.getContext(), llvm::StringRef(license));
    auto *global = new llvm::GlobalVariable(module_, text->getType(), /*isConstant=*/false,
                                            llvm::GlobalValue::ExternalLinkage, text, "LICENSE");
    global->setSection("license");
    global->setAlignment(llvm::Align(1));
    global->setDSOLocal(true);
    global->addDebugInfo(builder_->createGlobalVariableExpression(
        unit_, "LICENSE", "", file_, 0, char_array_type(license.size() + 1), false));
    return global;
}

llvm::GlobalVariable *BpfDebugInfo::define_global_variable(std::string_view name,
                                                           llvm::DIType *type,
                                                           llvm::Constant *initial_value,
                                                           GlobalDataSection section) {
    bool read_only = section == GlobalDataSection::ReadOnly;
    auto *global = new llvm::GlobalVariable(module_, initial_value->getType(), read_only,
                                            llvm::GlobalValue::ExternalLinkage, initial_value,
                                            llvm::StringRef(name));
    // Named explicitly: a constant could otherwise land in a mergeable
    // ".rodata.cst4" section, which libbpf does not map.
    global->setSection(read_only ? ".rodata" : ".data");
    global->setAlignment(module_.getDataLayout().getPrefTypeAlign(initial_value->getType()));
    global->setDSOLocal(true);
    global->addDebugInfo(builder_->createGlobalVariableExpression(unit_, llvm::StringRef(name), "",
                                                                  file_, 0, type, false));
    return global;
}

void BpfDebugInfo::define_program(llvm::Function &function, std::string_view section,
                                  unsigned line) {
    function.setLinkage(llvm::GlobalValue::ExternalLinkage);
    function.setDSOLocal(true);
    function.setSection(llvm::StringRef(section));
    describe_function(function, line, /*is_local=*/false);
}

void BpfDebugInfo::define_static_function(llvm::Function &function, unsigned line) {
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    function.addFnAttr(llvm::Attribute::NoInline);
    describe_function(function, line, /*is_local=*/true);
}

void BpfDebugInfo::define_global_function(llvm::Function &function,
                                          std::span<llvm::DIType *const> parameters) {
    function.setLinkage(llvm::GlobalValue::ExternalLinkage);
    function.setSection(".text");
    function.addFnAttr(llvm::Attribute::NoInline);
    describe_function(function, 0, /*is_local=*/false, parameters);
}

void BpfDebugInfo::describe_function(llvm::Function &function, unsigned line, bool is_local,
                                     std::span<llvm::DIType *const> parameters) {
    // BPF code cannot unwind; without this LLVM emits an .eh_frame section.
    function.setDoesNotThrow();
    std::vector<llvm::Metadata *> signature{type_of_ir_value(function.getReturnType())};
    for (llvm::Argument &argument : function.args())
        signature.push_back(argument.getArgNo() < parameters.size()
                                ? parameters[argument.getArgNo()]
                                : type_of_ir_value(argument.getType()));

    auto flags = llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized;
    if (is_local)
        flags |= llvm::DISubprogram::SPFlagLocalToUnit;
    llvm::DISubprogram *subprogram = builder_->createFunction(
        file_, function.getName(), "", file_, line,
        builder_->createSubroutineType(builder_->getOrCreateTypeArray(signature)), line,
        llvm::DINode::FlagPrototyped, flags);

    // The kernel rejects BTF with an unnamed FUNC parameter, and the backend
    // takes the names from the subprogram's parameter variables.
    for (llvm::Argument &argument : function.args()) {
        std::string name = argument.hasName() ? argument.getName().str()
                                              : "arg" + std::to_string(argument.getArgNo());
        builder_->createParameterVariable(
            subprogram, name, argument.getArgNo() + 1, file_, line,
            llvm::cast<llvm::DIType>(signature[argument.getArgNo() + 1]),
            /*AlwaysPreserve=*/true);
    }
    function.setSubprogram(subprogram);
}

llvm::DIType *BpfDebugInfo::type_of_ir_value(llvm::Type *type) {
    if (type->isVoidTy())
        return nullptr;
    if (type->isPointerTy())
        return builder_->createPointerType(nullptr, kPointerBits); // void *
    if (auto *integer = llvm::dyn_cast<llvm::IntegerType>(type)) {
        unsigned bits = integer->getBitWidth();
        if (bits == 1)
            return builder_->createBasicType("bool", 8, llvm::dwarf::DW_ATE_boolean);
        if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
            return integer_type(bits / 8, /*is_signed=*/true);
    }
    if (!type_error_) {
        std::string text;
        llvm::raw_string_ostream stream(text);
        type->print(stream);
        type_error_ =
            failure("BPF functions take and return only integers and pointers, not " + text);
    }
    // Described as a pointer so the debug info stays well formed until
    // finalize() says the error.
    return builder_->createPointerType(nullptr, kPointerBits);
}

llvm::DILocation *BpfDebugInfo::location(const llvm::Function &function, unsigned line,
                                         unsigned column) {
    return llvm::DILocation::get(module_.getContext(), line, column, function.getSubprogram());
}

Status BpfDebugInfo::finalize() {
    builder_->finalize();
    if (type_error_)
        return *type_error_;
    return {};
}

} // namespace dtx::codegen
