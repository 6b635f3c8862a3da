// The scanner's actions, kept as plain functions so lexer.l holds only rules.
#pragma once

#include "parser/parse_state.h"

#include <string>

namespace dtx::parser {

// Moves the position over the matched text and records it as the token range.
void advance(LexerContext &ctx, const char *text, size_t length);
// Undoes advance() for the characters yyless() gave back: the token is now `length` long.
void retreat(LexerContext &ctx, size_t length);

// At the outer scope: if the word begins a declaration (a keyword or type name
// such as `int`, `typedef`, `inline`, `self`), the length of that first word;
// 0 if the word is a probe description.
size_t declaration_keyword_length(LexerContext &ctx, const char *text, size_t length);
// An identifier, keyword, reserved word or type name.
Parser::symbol_type word_token(LexerContext &ctx, const std::string &word, const SourceRange &at);
// A `module`name` word: a type name when name is a type, else a scoped identifier.
Parser::symbol_type scoped_word_token(LexerContext &ctx, const std::string &word,
                                      const SourceRange &at);

bool predicate_ends_here(const LexerContext &ctx);

IntegerToken integer_token(LexerContext &ctx, const char *text, size_t length);
IntegerToken malformed_integer(LexerContext &ctx, const char *text, size_t length);
IntegerToken char_token(LexerContext &ctx, const char *text, size_t length);
std::string string_token(LexerContext &ctx, const char *text, size_t length);

void handle_pragma(LexerContext &ctx, const char *line);
void handle_line_marker(LexerContext &ctx, const char *line);
void unexpected_directive(LexerContext &ctx, const char *line);
void invalid_character(LexerContext &ctx, char c);
// Punctuation that is a D token, but cannot start anything at the outer scope.
void unexpected_at_outer_scope(LexerContext &ctx, char c);

void scanner_init(ParseState &state);
void scanner_destroy(ParseState &state);

} // namespace dtx::parser
