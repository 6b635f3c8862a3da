#include "libtrace/tracefs_format.h"

#include <algorithm>
#include <charconv>

namespace dtx::trace {
namespace {

std::string_view trim(std::string_view text) {
    size_t begin = text.find_first_not_of(" \t");
    if (begin == std::string_view::npos)
        return {};
    size_t end = text.find_last_not_of(" \t");
    return text.substr(begin, end - begin + 1);
}

bool is_identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::optional<uint32_t> parse_number(std::string_view text) {
    text = trim(text);
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

// The value of `key:VALUE;` in a field line, e.g. "offset" in
// "field:int x;\toffset:8;\tsize:4;\tsigned:1;".
std::optional<std::string_view> attribute(std::string_view line, std::string_view key) {
    size_t at = 0;
    while ((at = line.find(key, at)) != std::string_view::npos) {
        bool starts_word =
            at == 0 || line[at - 1] == ';' || line[at - 1] == '\t' || line[at - 1] == ' ';
        if (starts_word && at + key.size() < line.size() && line[at + key.size()] == ':') {
            size_t value = at + key.size() + 1;
            size_t end = line.find(';', value);
            if (end == std::string_view::npos)
                return std::nullopt;
            return line.substr(value, end - value);
        }
        at += key.size();
    }
    return std::nullopt;
}

// Elements of one byte, so that a bound written as an expression
// (`char comm[TASK_COMM_LEN]` on old kernels) is the field's size.
bool is_byte_type(std::string_view type) {
    for (std::string_view name :
         {"char", "signed char", "unsigned char", "u8", "s8", "__u8", "__s8", "uint8_t", "int8_t"})
        if (type == name)
            return true;
    return false;
}

// Splits a declaration ("const char * filename", "char comm[16]",
// "__data_loc char[] filename") into `field`'s name, type, kind and bound.
Status parse_declaration(std::string_view declaration, TracepointField &field) {
    declaration = trim(declaration);
    std::string_view bound;
    bool has_bound = false;
    if (!declaration.empty() && declaration.back() == ']') {
        size_t open = declaration.rfind('[');
        if (open == std::string_view::npos)
            return failure("unbalanced ']' in '" + std::string(declaration) + "'");
        bound = declaration.substr(open + 1, declaration.size() - open - 2);
        has_bound = true;
        declaration = trim(declaration.substr(0, open));
    }
    size_t name_begin = declaration.size();
    while (name_begin > 0 && is_identifier_char(declaration[name_begin - 1]))
        name_begin--;
    if (name_begin == declaration.size())
        return failure("no field name in '" + std::string(declaration) + "'");
    field.name = declaration.substr(name_begin);
    std::string_view type = trim(declaration.substr(0, name_begin));
    if (type.empty())
        return failure("no type for field '" + field.name + "'");

    for (auto [prefix, kind] :
         {std::pair{std::string_view("__data_loc "), TracepointFieldKind::DataLoc},
          std::pair{std::string_view("__rel_loc "), TracepointFieldKind::RelLoc}}) {
        if (!type.starts_with(prefix) && type != trim(prefix))
            continue;
        // An array's element type carries the brackets ("__data_loc char[]");
        // a __cpumask() field names its type whole ("__data_loc cpumask_t").
        type = trim(type.substr(std::min(prefix.size(), type.size())));
        field.kind = kind;
        field.type = trim(type.ends_with("[]") ? type.substr(0, type.size() - 2) : type);
        if (field.type.empty())
            return failure("no type for field '" + field.name + "'");
        return {};
    }
    field.type = type;
    if (has_bound) {
        field.kind = TracepointFieldKind::Array;
        if (std::optional<uint32_t> count = parse_number(bound))
            field.array_count = *count;
        else if (!trim(bound).empty() && is_byte_type(field.type))
            field.array_count = field.size;
    } else {
        field.is_pointer = type.back() == '*';
    }
    return {};
}

} // namespace

Result<TracepointFormat> parse_tracepoint_format(std::string_view text) {
    TracepointFormat format;
    bool has_name = false;
    size_t line_number = 0;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        std::string_view line = text.substr(
            start, end == std::string_view::npos ? std::string_view::npos : end - start);
        start = end == std::string_view::npos ? text.size() : end + 1;
        line_number++;
        std::string_view content = trim(line);
        auto fail = [&](std::string message) {
            return failure("line " + std::to_string(line_number) + ": " + std::move(message));
        };

        if (content.starts_with("name:")) {
            format.name = trim(content.substr(5));
            has_name = true;
        } else if (content.starts_with("ID:")) {
            std::optional<uint32_t> id = parse_number(content.substr(3));
            if (!id)
                return fail("'" + std::string(content) + "' is not an event ID");
            format.id = *id;
        } else if (content.starts_with("print fmt:")) {
            break; // the fields are all before it
        } else if (content.starts_with("field:")) {
            TracepointField field;
            size_t declaration_end = content.find(';');
            if (declaration_end == std::string_view::npos)
                return fail("no ';' after the declaration in '" + std::string(content) + "'");
            std::string_view attributes = content.substr(declaration_end);
            std::optional<std::string_view> offset = attribute(attributes, "offset");
            std::optional<std::string_view> size = attribute(attributes, "size");
            if (!offset || !parse_number(*offset))
                return fail("no 'offset:' number in '" + std::string(content) + "'");
            if (!size || !parse_number(*size))
                return fail("no 'size:' number in '" + std::string(content) + "'");
            field.offset = *parse_number(*offset);
            field.size = *parse_number(*size);
            // Kernels before 2.6.33 wrote no signed: attribute.
            if (std::optional<std::string_view> is_signed = attribute(attributes, "signed"))
                field.is_signed = trim(*is_signed) == "1";
            if (Status parsed = parse_declaration(content.substr(6, declaration_end - 6), field);
                !parsed)
                return fail(parsed.error().message);
            (field.name.starts_with("common_") ? format.common_fields : format.fields)
                .push_back(std::move(field));
        }
    }
    if (!has_name)
        return failure("no 'name:' line");
    return format;
}

} // namespace dtx::trace
