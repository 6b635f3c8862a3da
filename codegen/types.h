// D's type system as the checker sees it: C's integer types with their Linux
// x86-64 sizes, D's `string`, pointers, arrays, structs/unions/enums declared in
// D (laid out as GCC lays them out on x86-64, bit-fields included), typedefs,
// function types (provider probe prototypes), and the kinds DTrace adds for
// stack() and symbol addresses. Types are owned by a TypeTable and compared by
// identity after typedefs are stripped; the rules of C's promotions, usual
// arithmetic conversions and D's assignment compatibility live here too.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtx::sema {

enum class TypeKind {
    Void,
    Integer, // char .. long long, _Bool; also DTrace's _symaddr/_usymaddr
    Float,   // declarable (struct members), but D does no floating-point arithmetic
    Enum,    // an int that names its values
    Pointer,
    Array,
    String, // D's string: a NUL-terminated value of at most strsize bytes
    Struct,
    Union,
    Function,
    Typedef,
    Stack, // the result of stack() and ustack(): usable as a key or traced
};

// How a printed integer is shown: kernel and user symbol addresses (func(),
// usym() ...) are integers that the consumer symbolizes.
enum class Symbolization : uint8_t { None, Kernel, User };

// What a symbol address prints as: "module`function+0x10" (uaddr(), %a, %A),
// "module`function" (sym(), func(), usym(), ufunc()) or "module" (mod(), umod()).
enum class SymbolForm : uint8_t { Address, Function, Module };

struct Type;

struct Member {
    std::string name; // empty for an anonymous struct/union member
    const Type *type = nullptr;
    uint64_t bit_offset = 0; // from the start of the enclosing struct or union
    uint32_t bit_width = 0;  // 0: not a bit-field

    uint64_t byte_offset() const { return bit_offset / 8; }
    bool is_bit_field() const { return bit_width != 0; }
};

struct EnumValue {
    std::string name;
    int64_t value = 0;
};

struct Type {
    TypeKind kind = TypeKind::Void;
    std::string name; // as shown in messages: "int", "struct foo", "uint64_t", "char *"
    uint64_t size = 0;
    uint32_t alignment = 1;

    // Integer and Enum.
    bool is_signed = false;
    int rank = 0; // C's integer conversion rank: _Bool < char < short < int < long < long long
    Symbolization symbolization = Symbolization::None;
    SymbolForm symbol_form = SymbolForm::Address; // when symbolized

    // Pointer: pointee; Array: element; Typedef: the aliased type; Function: return type.
    const Type *element = nullptr;
    uint64_t array_count = 0;   // Array
    bool element_const = false; // Pointer: to const (so `const char *` prints as written)

    // Struct and Union. `complete` is false for a forward declaration, which
    // can still be pointed to.
    bool complete = true;
    std::vector<Member> members = {};
    std::vector<EnumValue> enumerators = {}; // Enum

    std::vector<const Type *> parameters = {}; // Function
    bool variadic = false;
};

// Strips typedefs (not pointers): the type the rules below work on.
const Type *resolve(const Type *type);

bool is_void(const Type *type);
bool is_integer(const Type *type); // integers and enums (C's "integer types")
bool is_pointer(const Type *type);
bool is_array(const Type *type);
bool is_string(const Type *type);
bool is_char_array(const Type *type);
bool is_char_pointer(const Type *type);
// Scalars: what a predicate, `!`, `&&` or a conditional's test may be.
bool is_scalar(const Type *type);
// D strings and what D converts to them: string, char arrays and char pointers.
bool is_string_like(const Type *type);
bool is_struct_or_union(const Type *type);

// The bytes a string takes: strsize characters and the NUL, as in dtrace.
inline uint64_t string_bytes(uint64_t strsize) {
    return strsize + 1;
}

class TypeTable {
public:
    explicit TypeTable(uint64_t string_size = 256);

    const Type *void_type() const { return void_; }
    const Type *string_type() const { return string_; }
    const Type *stack_type() const { return stack_; }
    // ustack(): a Stack whose frames are the current process's (User).
    const Type *user_stack_type() const { return user_stack_; }
    const Type *int_type() const { return int_; }
    const Type *char_type() const { return char_; }

    // C's base types by their canonical spelling ("unsigned long long", "char")
    // and D's built-in typedefs ("uint64_t", "pid_t") and program typedefs.
    const Type *lookup(std::string_view name) const;
    const Type *symbol_address(Symbolization symbolization,
                               SymbolForm form = SymbolForm::Address) const;

    const Type *pointer_to(const Type *pointee, bool to_const = false);
    const Type *array_of(const Type *element, uint64_t count);
    const Type *function(const Type *result, std::vector<const Type *> parameters, bool variadic);
    // Creates a typedef; false if `name` is already a different type.
    bool add_typedef(const std::string &name, const Type *aliased, const Type **out);

    // Struct, union and enum tags. A tag is declared (incomplete) on first
    // mention and completed by define_record / define_enum.
    Type *tagged(TypeKind kind, const std::string &tag);
    // A tag mentioned before, or null; unlike tagged(), declares nothing.
    Type *find_tag(TypeKind kind, const std::string &tag) const;
    // Every tag of `kind` mentioned so far, without its keyword.
    std::vector<std::string> tags(TypeKind kind) const;
    // An anonymous struct/union/enum.
    Type *anonymous(TypeKind kind);

private:
    Type *make(Type type);

    std::vector<std::unique_ptr<Type>> storage_;
    std::map<std::string, const Type *, std::less<>> names_;
    std::map<std::string, Type *, std::less<>> tags_; // "struct foo", "union u", "enum e"
    std::map<std::pair<const Type *, bool>, const Type *> pointers_;
    std::map<std::pair<const Type *, uint64_t>, const Type *> arrays_;
    const Type *void_ = nullptr, *string_ = nullptr, *stack_ = nullptr, *user_stack_ = nullptr,
               *int_ = nullptr, *char_ = nullptr;
    // _symaddr and _usymaddr, by SymbolForm.
    const Type *symaddr_[3] = {}, *usymaddr_[3] = {};
};

// A member as declared, before layout.
struct MemberDeclaration {
    std::string name;
    const Type *type = nullptr;
    std::optional<uint32_t> bit_width; // set for bit-fields, 0 for `int : 0;`
};

// Lays out a struct or union as GCC does on x86-64: members at their natural
// alignment; a bit-field continues in the current storage unit of its declared
// type unless it would cross that unit's boundary; `: 0` closes the unit;
// unnamed bit-fields do not raise the alignment. Completes `record`.
void layout_record(Type &record, const std::vector<MemberDeclaration> &members);

// A member by name, looking through anonymous struct/union members; the
// returned member's offset is from the start of `record`.
std::optional<Member> find_member(const Type *record, std::string_view name);

// --- C's conversions ---------------------------------------------------------

// Integer promotion: types of lower rank than int (and enums) become int.
const Type *promote(const TypeTable &types, const Type *type);
// The usual arithmetic conversions of two integer operands.
const Type *usual_arithmetic(const TypeTable &types, const Type *lhs, const Type *rhs);

// D computes with 64-bit registers: an integer expression's value is not cut
// to its type's width until it is stored, cast or converted (`j * j / 1000`
// with an int j keeps the product's 64 bits). These give the value of an
// integer of `type` as a narrower variable holds it (wrapped and sign- or
// zero-extended), and of a value of type `from` converted to `to` (a cast, or
// an operand joining the usual arithmetic conversions): narrowing wraps;
// changing signedness takes the value as `from` holds it first, as C does;
// widening with the same signedness keeps all 64 bits. Non-integers are
// returned unchanged. The code generator emits the same rules.
// A cast is a conversion that also wraps a value of the same width to its
// type's range: (int)(x + 1) with x == INT_MAX is negative.
int64_t wrap_to(int64_t value, const Type *type);
int64_t convert_value(int64_t value, const Type *from, const Type *to);
int64_t cast_value(int64_t value, const Type *from, const Type *to);

// Whether two pointer types may be compared, subtracted or assigned: the same
// pointee (qualifiers aside), or either one void *.
bool pointers_compatible(const Type *lhs, const Type *rhs);

// D's argument compatibility (dtrace's dt_node_is_argcompat), used for
// assignment, function arguments and associative-array keys: both integers;
// both string-like; compatible pointers; or the same type. `rhs_is_null` is
// whether the value is the constant 0, which fits any pointer.
bool assignable(const Type *to, const Type *from, bool rhs_is_null = false);

} // namespace dtx::sema
