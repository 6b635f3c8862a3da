#include "parser/lexer_support.h"

#include <cctype>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace dtx::parser {

using Token = Parser::symbol_type;

void advance(LexerContext &ctx, const char *text, size_t length) {
    SourceRange &r = ctx.token_range;
    r.source = &ctx.source;
    r.display_name = ctx.display_name;
    r.source_line = ctx.physical_line;
    r.begin = {ctx.line, ctx.column};
    for (size_t i = 0; i < length; ++i) {
        if (text[i] == '\n') {
            ++ctx.line;
            ++ctx.physical_line;
            ctx.column = 1;
        } else {
            ++ctx.column;
        }
    }
    ctx.offset += length;
    r.end = {ctx.line, ctx.column};
}

void retreat(LexerContext &ctx, size_t length) {
    // Only used on single-line words, so the line does not change.
    size_t given_back = size_t(ctx.token_range.end.column - ctx.token_range.begin.column) - length;
    ctx.offset -= given_back;
    ctx.column -= uint32_t(given_back);
    ctx.token_range.end.column -= uint32_t(given_back);
}

namespace {

struct KeywordInfo {
    Parser::token_kind_type token;
    bool begins_declaration;
};

const std::unordered_map<std::string_view, KeywordInfo> &keywords() {
    static const std::unordered_map<std::string_view, KeywordInfo> table = {
        {"auto", {Parser::token::TOK_KW_AUTO, true}},
        {"char", {Parser::token::TOK_KW_CHAR, true}},
        {"const", {Parser::token::TOK_KW_CONST, true}},
        {"double", {Parser::token::TOK_KW_DOUBLE, true}},
        {"else", {Parser::token::TOK_KW_ELSE, false}},
        {"enum", {Parser::token::TOK_KW_ENUM, true}},
        {"extern", {Parser::token::TOK_KW_EXTERN, true}},
        {"float", {Parser::token::TOK_KW_FLOAT, true}},
        {"if", {Parser::token::TOK_KW_IF, false}},
        {"inline", {Parser::token::TOK_KW_INLINE, true}},
        {"int", {Parser::token::TOK_KW_INT, true}},
        {"long", {Parser::token::TOK_KW_LONG, true}},
        {"offsetof", {Parser::token::TOK_KW_OFFSETOF, false}},
        {"probe", {Parser::token::TOK_KW_PROBE, false}},
        {"provider", {Parser::token::TOK_KW_PROVIDER, true}},
        {"register", {Parser::token::TOK_KW_REGISTER, true}},
        {"restrict", {Parser::token::TOK_KW_RESTRICT, true}},
        {"self", {Parser::token::TOK_KW_SELF, true}},
        {"short", {Parser::token::TOK_KW_SHORT, true}},
        {"signed", {Parser::token::TOK_KW_SIGNED, true}},
        {"sizeof", {Parser::token::TOK_KW_SIZEOF, false}},
        {"static", {Parser::token::TOK_KW_STATIC, true}},
        {"string", {Parser::token::TOK_KW_STRING, true}},
        {"stringof", {Parser::token::TOK_KW_STRINGOF, false}},
        {"struct", {Parser::token::TOK_KW_STRUCT, true}},
        {"this", {Parser::token::TOK_KW_THIS, true}},
        {"translator", {Parser::token::TOK_KW_TRANSLATOR, true}},
        {"typedef", {Parser::token::TOK_KW_TYPEDEF, true}},
        {"union", {Parser::token::TOK_KW_UNION, true}},
        {"unsigned", {Parser::token::TOK_KW_UNSIGNED, true}},
        {"void", {Parser::token::TOK_KW_VOID, true}},
        {"volatile", {Parser::token::TOK_KW_VOLATILE, true}},
        {"xlate", {Parser::token::TOK_KW_XLATE, false}},
    };
    return table;
}

// Words D reserves but gives no meaning: C's loop and jump statements among them.
bool is_reserved_word(std::string_view word) {
    static constexpr std::string_view reserved[] = {
        "break", "case",   "continue", "counter", "default",  "do",    "for",
        "goto",  "import", "return",   "switch",  "userland", "while",
    };
    for (std::string_view r : reserved) {
        if (r == word)
            return true;
    }
    return false;
}

size_t identifier_prefix(const char *text, size_t length) {
    size_t n = 0;
    if (length == 0 || !(std::isalpha(uint8_t(text[0])) || text[0] == '_'))
        return 0;
    while (n < length && (std::isalnum(uint8_t(text[n])) || text[n] == '_'))
        ++n;
    return n;
}

} // namespace

namespace {

// The first non-blank character at or after `i`, or '\0' at the end.
char next_character(const std::string &text, size_t i) {
    while (i < text.size() && std::isspace(uint8_t(text[i])))
        ++i;
    return i < text.size() ? text[i] : '\0';
}

bool is_word_character(char c) {
    return std::isalnum(uint8_t(c)) || c == '_';
}

// Whether the word just scanned (ending at ctx.offset) stands where only a
// type name fits: `(word)` or `(word *...)`, a cast or sizeof's operand, but
// not a call's only argument, `f(word)`.
bool in_type_position(const LexerContext &ctx, size_t word_length) {
    const std::string &text = ctx.source.text();
    size_t start = ctx.offset - word_length;
    while (start > 0 && std::isspace(uint8_t(text[start - 1])))
        --start;
    if (start == 0 || text[start - 1] != '(')
        return false;
    size_t before = start - 1;
    while (before > 0 && std::isspace(uint8_t(text[before - 1])))
        --before;
    if (before > 0 && is_word_character(text[before - 1])) {
        size_t word_start = before;
        while (word_start > 0 && is_word_character(text[word_start - 1]))
            --word_start;
        if (std::string_view(text).substr(word_start, before - word_start) != "sizeof")
            return false;
    }
    size_t i = ctx.offset;
    while (i < text.size() && std::isspace(uint8_t(text[i])))
        ++i;
    while (i < text.size() && (text[i] == '*' || std::isspace(uint8_t(text[i]))))
        ++i;
    return i < text.size() && text[i] == ')';
}

} // namespace

size_t declaration_keyword_length(LexerContext &ctx, const char *text, size_t length) {
    // Any ':' makes the word a probe description (`int:foo:bar` would be one).
    if (std::memchr(text, ':', length) != nullptr)
        return 0;
    size_t n = identifier_prefix(text, length);
    if (n == 0)
        return 0;
    std::string_view word(text, n);
    auto it = keywords().find(word);
    if (it != keywords().end())
        return it->second.begins_declaration ? n : 0;
    if (ctx.type_names.contains(word))
        return n;
    // `atomic_t counter;`: a whole word followed by a name or '*' declares
    // something if the word is a typedef of the kernel's.
    if (n == length) {
        char next = next_character(ctx.source.text(), ctx.offset);
        if ((std::isalpha(uint8_t(next)) || next == '_' || next == '*') &&
            ctx.type_names.look_up(word))
            return n;
    }
    return 0;
}

Token word_token(LexerContext &ctx, const std::string &word, const SourceRange &at) {
    if (!ctx.expect_member_name) {
        auto it = keywords().find(word);
        if (it != keywords().end())
            return Token(it->second.token, at);
        if (is_reserved_word(word))
            return Parser::make_RESERVED(word, at);
        if (ctx.type_names.contains(word) ||
            (in_type_position(ctx, word.size()) && ctx.type_names.look_up(word)))
            return Parser::make_TYPE_NAME(word, at);
    }
    return Parser::make_IDENT(word, at);
}

Token scoped_word_token(LexerContext &ctx, const std::string &word, const SourceRange &at) {
    // `D`int`, `vmlinux`pid_t`: a type named in one module's scope is a type
    // name; anything else scoped (`vmlinux`jiffies`, ``main`) is a symbol.
    const size_t tick = word.rfind('`');
    const std::string name = word.substr(tick + 1);
    static const std::unordered_set<std::string_view> base_types = {
        "char", "double", "float", "int", "long", "short", "signed", "unsigned", "void"};
    if (tick > 0 && !ctx.expect_member_name &&
        (base_types.count(name) || ctx.type_names.contains(name) ||
         (in_type_position(ctx, word.size()) && ctx.type_names.look_up(name))))
        return Parser::make_TYPE_NAME(word, at);
    return Parser::make_SCOPED_IDENT(word, at);
}

bool predicate_ends_here(const LexerContext &ctx) {
    const std::string &text = ctx.source.text();
    size_t i = ctx.offset;
    while (i < text.size() && std::isspace(uint8_t(text[i])))
        ++i;
    return i == text.size() || text[i] == '{' || text[i] == ';' || text[i] == '/';
}

// ---- constants -------------------------------------------------------------

IntegerToken integer_token(LexerContext &ctx, const char *text, size_t length) {
    IntegerToken token;
    std::string_view s(text, length);
    size_t digits_end = s.size();
    while (digits_end > 0 && std::strchr("uUlL", s[digits_end - 1]) != nullptr)
        --digits_end;
    for (size_t i = digits_end; i < s.size(); ++i) {
        if (s[i] == 'u' || s[i] == 'U')
            token.is_unsigned = true;
        else
            ++token.long_count;
    }
    std::string_view digits = s.substr(0, digits_end);
    unsigned base = 10;
    if (digits.size() > 1 && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16;
        digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
        base = 8;
        digits.remove_prefix(1);
    }
    token.base = uint8_t(base);
    unsigned __int128 value = 0;
    for (char c : digits) {
        unsigned d =
            std::isdigit(uint8_t(c)) ? unsigned(c - '0') : unsigned(std::tolower(c) - 'a' + 10);
        value = value * base + d;
        if (value > UINT64_MAX) {
            ctx.diagnostics.error("D_INT_OFLOW", ctx.token_range,
                                  "integer constant '" + std::string(s) +
                                      "' is too large for 64 bits");
            return IntegerToken{};
        }
    }
    token.value = uint64_t(value);
    return token;
}

IntegerToken malformed_integer(LexerContext &ctx, const char *text, size_t length) {
    std::string s(text, length);
    bool octal = s.size() > 1 && s[0] == '0' && std::isdigit(uint8_t(s[1]));
    size_t bad = s.find_first_not_of(octal ? "01234567" : "0123456789", octal ? 1 : 0);
    if (octal && bad != std::string::npos && (s[bad] == '8' || s[bad] == '9')) {
        ctx.diagnostics.error("D_INT_DIGIT", ctx.token_range,
                              std::string("invalid digit '") + s[bad] + "' in octal constant '" +
                                  s + "'");
    } else {
        ctx.diagnostics.error("D_INT_DIGIT", ctx.token_range,
                              "invalid integer constant '" + s + "'");
    }
    return IntegerToken{};
}

namespace {

// Decodes the escapes between the quotes of a string or character constant.
// Reports the first bad escape with its own column. In a string, as dtrace
// (its stresc2chr()), an escape it does not know, \' and \? among them,
// stays as written, backslash and all.
std::string decode_escapes(LexerContext &ctx, std::string_view body, uint32_t first_column,
                           bool in_string) {
    std::string out;
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (c != '\\' || i + 1 == body.size()) {
            out += c;
            continue;
        }
        size_t escape_at = i;
        char e = body[++i];
        switch (e) {
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'v':
            out += '\v';
            break;
        case 'b':
            out += '\b';
            break;
        case 'r':
            out += '\r';
            break;
        case 'f':
            out += '\f';
            break;
        case 'a':
            out += '\a';
            break;
        case '\\':
            out += '\\';
            break;
        case '?':
        case '\'':
            if (in_string)
                out += '\\';
            out += e;
            break;
        case '"':
            out += '"';
            break;
        case 'x': {
            unsigned value = 0;
            size_t n = 0;
            while (i + 1 < body.size() && std::isxdigit(uint8_t(body[i + 1])) && n < 2) {
                char h = body[++i];
                value = value * 16 +
                        unsigned(std::isdigit(uint8_t(h)) ? h - '0' : std::tolower(h) - 'a' + 10);
                ++n;
            }
            if (n == 0) {
                SourceRange at = ctx.token_range;
                at.begin.column = first_column + uint32_t(escape_at);
                at.end.column = at.begin.column + 2;
                ctx.diagnostics.error("D_ESC_BAD", at, "'\\x' escape without hexadecimal digits");
            }
            out += char(value);
            break;
        }
        default:
            if (e >= '0' && e <= '7') {
                unsigned value = unsigned(e - '0');
                for (int n = 1;
                     n < 3 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7'; ++n)
                    value = value * 8 + unsigned(body[++i] - '0');
                if (value > 0xff) {
                    SourceRange at = ctx.token_range;
                    at.begin.column = first_column + uint32_t(escape_at);
                    at.end.column = first_column + uint32_t(i) + 1;
                    ctx.diagnostics.error("D_ESC_BAD", at, "octal escape sequence out of range");
                }
                out += char(value);
            } else if (in_string) {
                out += '\\';
                out += e;
            } else {
                // A character constant keeps the character after an unknown
                // escape, with a warning, since it is usually a mistake.
                SourceRange at = ctx.token_range;
                at.begin.column = first_column + uint32_t(escape_at);
                at.end.column = at.begin.column + 2;
                ctx.diagnostics.warning("D_ESC_UNKNOWN", at,
                                        std::string("unknown escape sequence '\\") + e + "'");
                out += e;
            }
        }
    }
    return out;
}

} // namespace

std::string string_token(LexerContext &ctx, const char *text, size_t length) {
    return decode_escapes(ctx, std::string_view(text + 1, length - 2),
                          ctx.token_range.begin.column + 1, true);
}

IntegerToken char_token(LexerContext &ctx, const char *text, size_t length) {
    std::string bytes = decode_escapes(ctx, std::string_view(text + 1, length - 2),
                                       ctx.token_range.begin.column + 1, false);
    IntegerToken token;
    token.is_character = true;
    if (bytes.empty()) {
        ctx.diagnostics.error("D_CHR_NULL", ctx.token_range, "empty character constant");
        return token;
    }
    if (bytes.size() > 8) {
        ctx.diagnostics.error("D_CHR_OFLOW", ctx.token_range,
                              "character constant is too long (at most 8 characters)");
        return token;
    }
    // A single character is a signed char, as in C; several pack big-endian.
    if (bytes.size() == 1) {
        token.value = uint64_t(int64_t(static_cast<signed char>(bytes[0])));
        return token;
    }
    for (char c : bytes)
        token.value = (token.value << 8) | uint8_t(c);
    return token;
}

// ---- directives ------------------------------------------------------------

namespace {

std::vector<std::string> split_words(std::string_view line) {
    std::vector<std::string> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(uint8_t(line[i])))
            ++i;
        if (i == line.size())
            break;
        size_t start = i;
        if (line[i] == '"') {
            ++i;
            while (i < line.size() && line[i] != '"')
                ++i;
            words.emplace_back(line.substr(start + 1, i - start - 1));
            ++i;
            continue;
        }
        while (i < line.size() && !std::isspace(uint8_t(line[i])))
            ++i;
        words.emplace_back(line.substr(start, i - start));
    }
    return words;
}

// The words after '#' and the directive name.
std::vector<std::string> directive_words(const char *line, std::string_view directive) {
    std::string_view text(line);
    size_t at = text.find(directive);
    return split_words(text.substr(at + directive.size()));
}

void set_line(LexerContext &ctx, const std::vector<std::string> &words, size_t at) {
    // The directive's own newline is still to be scanned and will add one.
    ctx.line = uint32_t(std::strtoul(words[at].c_str(), nullptr, 10)) - 1;
    if (words.size() > at + 1)
        ctx.display_name = std::make_shared<const std::string>(words[at + 1]);
}

} // namespace

void handle_pragma(LexerContext &ctx, const char *line) {
    std::vector<std::string> words = directive_words(line, "pragma");
    const SourceRange &at = ctx.token_range;
    if (words.empty()) {
        ctx.diagnostics.error("D_PRAGMA_MALFORM", at, "#pragma without a directive");
        return;
    }
    if (words[0] != "D") {
        // Non-D pragmas are cpp's or a C header's business; `line` is cpp's output.
        if (words[0] == "line" && words.size() >= 2 && std::isdigit(uint8_t(words[1][0])))
            set_line(ctx, words, 1);
        return;
    }
    words.erase(words.begin());
    if (words.empty()) {
        ctx.diagnostics.error("D_PRAGMA_MALFORM", at, "#pragma D without a directive");
        return;
    }
    static constexpr std::string_view known[] = {"attributes", "binding", "depends_on", "error",
                                                 "ident",      "line",    "option"};
    const std::string &directive = words[0];
    bool is_known = false;
    for (std::string_view k : known)
        is_known = is_known || k == directive;
    if (!is_known) {
        ctx.diagnostics
            .error("D_PRAGMA_INVAL", at, "unknown directive '#pragma D " + directive + "'")
            .hints.push_back("known: attributes, binding, depends_on, error, ident, line, option");
        return;
    }
    if (directive == "option" && (words.size() < 2 || words[1].empty() || words[1][0] == '=')) {
        ctx.diagnostics.error("D_PRAGMA_MALFORM", at, "#pragma D option requires an option name");
        return;
    }
    if ((directive == "depends_on" || directive == "binding" || directive == "attributes") &&
        words.size() < 3) {
        ctx.diagnostics.error("D_PRAGMA_MALFORM", at,
                              "#pragma D " + directive + " requires two arguments");
        return;
    }
    if (directive == "error") {
        std::string message;
        for (size_t i = 1; i < words.size(); ++i)
            message += (i > 1 ? " " : "") + words[i];
        ctx.diagnostics.error("D_PRAGERR", at, "#pragma D error: " + message);
        return;
    }
    if (directive == "line") {
        if (words.size() < 2 || !std::isdigit(uint8_t(words[1][0])))
            ctx.diagnostics.error("D_PRAGMA_MALFORM", at, "#pragma D line requires a line number");
        else
            set_line(ctx, words, 1);
        return;
    }
    ctx.pragmas.push_back(ast::Pragma{at, std::move(words)});
}

void handle_line_marker(LexerContext &ctx, const char *line) {
    std::vector<std::string> words = split_words(std::string_view(std::strchr(line, '#') + 1));
    size_t at = (!words.empty() && words[0] == "line") ? 1 : 0;
    if (words.size() > at)
        set_line(ctx, words, at);
}

void unexpected_directive(LexerContext &ctx, const char *line) {
    std::vector<std::string> words = split_words(std::string_view(std::strchr(line, '#') + 1));
    std::string name = words.empty() ? "" : words[0];
    ctx.diagnostics
        .error("D_PREPROC", ctx.token_range,
               "preprocessor directive '#" + name + "' found without the C preprocessor")
        .hints.push_back("run the script through cpp with -C");
}

void invalid_character(LexerContext &ctx, char c) {
    char shown[8];
    if (std::isprint(uint8_t(c)))
        std::snprintf(shown, sizeof shown, "%c", c);
    else
        std::snprintf(shown, sizeof shown, "\\x%02x", uint8_t(c));
    ctx.diagnostics.error("D_CHR_BAD", ctx.token_range,
                          std::string("invalid character '") + shown + "'");
}

void unexpected_at_outer_scope(LexerContext &ctx, char c) {
    ctx.diagnostics.error("D_SYNTAX", ctx.token_range,
                          std::string("syntax error near '") + c +
                              "': expected a probe description or a declaration");
}

} // namespace dtx::parser
