// Values computed from a definition with parameters: associative-array
// inlines (`inline int f[int x] = x + 1;` used as f[y]) and translators
// (xlate<T>(e), xlate<T *>(e)->member). Their parameters are bound to the
// lowered arguments while the definition's expression is lowered, so one
// definition serves every use; an xlate whose member is taken lowers that
// member's expression only, as dtrace translates only what is used.
#include "codegen/lowering.h"

namespace dtx::codegen {

Value Lowering::bound_parameter(const sema::Resolution &resolution, const ast::Expr &expr) {
    for (auto binding = bindings_.rbegin(); binding != bindings_.rend(); ++binding)
        if (binding->owner == resolution.owner && resolution.index < binding->values.size())
            return binding->values[resolution.index];
    error("D_CODEGEN", expr.range, "internal error: a parameter used outside its definition");
    return {const64(0), expr.type};
}

Lowering::Binding Lowering::bind_inline_arguments(const ast::Subscript &use,
                                                  const ast::InlineDefinition &definition,
                                                  ClauseState &state) {
    const std::vector<const sema::Type *> &parameters =
        input_.checked.inline_parameters.at(&definition);
    Binding binding{&definition, {}};
    for (size_t i = 0; i < use.indices.size() && i < parameters.size(); i++) {
        Value argument = lower(*use.indices[i], state);
        argument.value = convert(argument.value, argument.type, parameters[i]);
        argument.type = parameters[i];
        binding.values.push_back(argument);
    }
    return binding;
}

Value Lowering::lower_inline_call(const ast::Subscript &use,
                                  const ast::InlineDefinition &definition, ClauseState &state) {
    bindings_.push_back(bind_inline_arguments(use, definition, state));
    Value value = lower(*definition.value, state);
    bindings_.pop_back();
    value.value = convert(value.value, definition.value->type, use.type);
    value.type = use.type;
    return value;
}

const ast::Expr *Lowering::substitute_of(const ast::Expr &expr) const {
    auto it = input_.checked.resolutions.find(&expr);
    if (it == input_.checked.resolutions.end() ||
        it->second.kind != sema::Resolution::Kind::Substitute)
        return nullptr;
    return it->second.substitute;
}

const sema::TranslatorInfo *Lowering::translator_of(const ast::Xlate &xlate) const {
    auto it = input_.checked.resolutions.find(&xlate);
    return it == input_.checked.resolutions.end() ? nullptr : it->second.translator;
}

Value Lowering::translate_member(const ast::Xlate &xlate, const std::string &member,
                                 const sema::Type *type, ClauseState &state) {
    const sema::TranslatorInfo *translator = translator_of(xlate);
    auto found =
        translator ? translator->members.find(member) : decltype(translator->members.end()){};
    if (!translator || found == translator->members.end()) {
        error("D_CODEGEN", xlate.range,
              "internal error: no translation of member '" + member + "'");
        return {const64(0), type};
    }
    bindings_.push_back({translator->definition, {lower(*xlate.operand, state)}});
    Value value = lower(*found->second, state);
    bindings_.pop_back();
    if (!value.value->getType()->isPointerTy())
        value.value = convert(value.value, found->second->type, type);
    value.type = type;
    return value;
}

std::optional<Value> Lowering::lower_translated_member(const ast::Expr &base,
                                                       const std::string &member,
                                                       const sema::Type *type, ClauseState &state) {
    if (const auto *xlate = base.as<ast::Xlate>())
        return translate_member(*xlate, member, type, state);
    if (const ast::Expr *substitute = substitute_of(base)) // args[N] of a stable provider
        return lower_translated_member(*substitute, member, type, state);
    // An associative-array inline whose value is a translation (fds[fd]):
    // the member only, with the inline's parameters bound.
    if (const auto *use = base.as<ast::Subscript>()) {
        auto it = input_.checked.resolutions.find(use->base.get());
        if (it == input_.checked.resolutions.end() ||
            it->second.kind != sema::Resolution::Kind::Inline ||
            it->second.inline_definition->parameters.empty() ||
            !it->second.inline_definition->value->as<ast::Xlate>())
            return std::nullopt;
        const ast::InlineDefinition &definition = *it->second.inline_definition;
        bindings_.push_back(bind_inline_arguments(*use, definition, state));
        Value value = translate_member(*definition.value->as<ast::Xlate>(), member, type, state);
        bindings_.pop_back();
        return value;
    }
    // An inline whose value is a translation (curpsinfo): the member only.
    if (base.kind == ast::Expr::Kind::Identifier) {
        auto it = input_.checked.resolutions.find(&base);
        if (it == input_.checked.resolutions.end() ||
            it->second.kind != sema::Resolution::Kind::Inline ||
            !it->second.inline_definition->parameters.empty())
            return std::nullopt;
        return lower_translated_member(*it->second.inline_definition->value, member, type, state);
    }
    // A member of a translation that is itself translated
    // (curpsinfo->pr_lwp.pr_state): the inner member under the outer binding.
    const auto *outer_member = base.as<ast::Member>();
    if (!outer_member)
        return std::nullopt;
    const ast::Expr *outer = outer_member->base.get();
    while (outer->kind == ast::Expr::Kind::Identifier) {
        auto it = input_.checked.resolutions.find(outer);
        if (it == input_.checked.resolutions.end() ||
            it->second.kind != sema::Resolution::Kind::Inline ||
            !it->second.inline_definition->parameters.empty())
            return std::nullopt;
        outer = it->second.inline_definition->value.get();
    }
    const auto *outer_xlate = outer->as<ast::Xlate>();
    const sema::TranslatorInfo *translator = outer_xlate ? translator_of(*outer_xlate) : nullptr;
    if (!translator)
        return std::nullopt;
    auto found = translator->members.find(outer_member->member);
    const auto *inner =
        found == translator->members.end() ? nullptr : found->second->as<ast::Xlate>();
    if (!inner)
        return std::nullopt;
    bindings_.push_back({translator->definition, {lower(*outer_xlate->operand, state)}});
    Value value = translate_member(*inner, member, type, state);
    bindings_.pop_back();
    return value;
}

Value Lowering::lower_xlate(const ast::Xlate &xlate, ClauseState &state) {
    // (ast::Xlate's own `type` is the type as written.)
    const sema::Type *result = static_cast<const ast::Expr &>(xlate).type;
    const sema::TranslatorInfo *translator = translator_of(xlate);
    if (!translator) {
        error("D_CODEGEN", xlate.range, "internal error: xlate without its translator");
        return {const64(0), result};
    }
    // The whole translated struct, in scratch: every member the translator
    // defines, the others zero.
    const sema::Type *record = sema::resolve(translator->output);
    const uint32_t size = align8(std::max<uint64_t>(record->size, 8));
    llvm::Value *buffer = scratch(state, size);
    zero(buffer, size);
    bindings_.push_back({translator->definition, {lower(*xlate.operand, state)}});
    for (const auto &[name, expr] : translator->members) {
        std::optional<sema::Member> member = sema::find_member(record, name);
        if (!member)
            continue;
        Value value = lower(*expr, state);
        if (!value.value->getType()->isPointerTy())
            value.value = convert(value.value, expr->type, member->type);
        const uint32_t shift = member->is_bit_field() ? uint32_t(member->bit_offset % 8) : 0;
        store_place({at(buffer, member->byte_offset()), member->type, shift, member->bit_width},
                    value);
    }
    bindings_.pop_back();
    if (sema::is_pointer(sema::resolve(result)))
        return {ir_.CreatePtrToInt(buffer, i64()), result};
    return {buffer, result};
}

} // namespace dtx::codegen
