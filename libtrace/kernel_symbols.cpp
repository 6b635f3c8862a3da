#include "libtrace/kernel_symbols.h"

#include "libtrace/whole_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <numeric>
#include <unordered_map>

namespace dtx::trace {

namespace {

constexpr std::string_view kKernelImage = "vmlinux";

struct Entry {
    uint64_t address;
    uint32_t name_offset; // into Data::text
    uint32_t name_length;
    uint32_t module; // index into Data::modules; 0 is vmlinux
    char type;
};

// Lower ranks win among names that share an address.
int binding_rank(char type) {
    if (type == 'W' || type == 'w' || type == 'V' || type == 'v')
        return 1;
    return (type >= 'A' && type <= 'Z') ? 0 : 2;
}

std::size_t leading_underscores(std::string_view name) {
    std::size_t n = 0;
    while (n < name.size() && name[n] == '_')
        ++n;
    return n;
}

// Why the addresses read as zero: kptr_restrict 2 hides them from everyone,
// 1 from readers without CAP_SYSLOG.
std::string kptr_restrict_hint() {
    const std::optional<std::string> setting_text =
        read_first_line("/proc/sys/kernel/kptr_restrict");
    int value = -1;
    if (!setting_text ||
        std::from_chars(setting_text->data(), setting_text->data() + setting_text->size(), value)
                .ec != std::errc())
        return "run dtx as root (with CAP_SYSLOG) and check the kernel.kptr_restrict sysctl";
    const std::string setting = "kernel.kptr_restrict is " + std::to_string(value);
    if (value >= 2)
        return setting + ": set it to 1 (sysctl -w kernel.kptr_restrict=1) and run dtx as root";
    return setting + ": run dtx as root (with CAP_SYSLOG)";
}

} // namespace

struct KernelSymbolTable::Data {
    std::string text;                      // the file; names are views into it
    std::vector<std::string_view> modules; // [0] is "vmlinux"
    std::vector<Entry> entries;            // by address, preferred name first
    std::vector<uint64_t> addresses;       // entries[i].address, for the search

    // Built on the first find(): name -> first entry (in preference order) and a
    // chain through the other entries with the same name.
    mutable std::once_flag names_built;
    mutable std::unordered_map<std::string_view, uint32_t> first_by_name;
    mutable std::vector<uint32_t> next_same_name;

    std::string_view name_of(const Entry &e) const {
        return std::string_view(text).substr(e.name_offset, e.name_length);
    }
    KernelSymbol symbol_of(const Entry &e, uint64_t offset) const {
        return KernelSymbol{name_of(e), modules[e.module], e.address, offset, e.type};
    }
    void build_names() const;
};

void KernelSymbolTable::Data::build_names() const {
    // Walk the entries (by address) global first, so that a name's chain starts
    // with its best symbol.
    std::vector<uint32_t> order(entries.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return binding_rank(entries[a].type) < binding_rank(entries[b].type);
    });
    // Walking from the worst, each entry pushes itself on its name's chain.
    next_same_name.assign(entries.size(), UINT32_MAX);
    first_by_name.reserve(entries.size());
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        auto [head, inserted] = first_by_name.try_emplace(name_of(entries[*it]), *it);
        if (!inserted) {
            next_same_name[*it] = head->second;
            head->second = *it;
        }
    }
}

KernelSymbolTable::KernelSymbolTable(std::unique_ptr<Data> data) : data_(std::move(data)) {}
KernelSymbolTable::KernelSymbolTable(KernelSymbolTable &&) noexcept = default;
KernelSymbolTable &KernelSymbolTable::operator=(KernelSymbolTable &&) noexcept = default;
KernelSymbolTable::~KernelSymbolTable() = default;

Result<KernelSymbolTable> KernelSymbolTable::parse(std::string text, std::string_view source) {
    auto data = std::make_unique<Data>();
    data->text = std::move(text);
    data->modules.push_back(kKernelImage);
    const std::string_view all(data->text);
    data->entries.reserve(all.size() / 40);

    std::string_view last_module = kKernelImage;
    uint32_t last_module_index = 0;
    bool any_nonzero = false;
    std::size_t pos = 0;
    while (pos < all.size()) {
        std::size_t end = all.find('\n', pos);
        if (end == std::string_view::npos)
            end = all.size();
        const std::string_view line = all.substr(pos, end - pos);
        const std::size_t line_start = pos;
        pos = end + 1;

        // "ffffffff816bab70 T vfs_read" or "... t name\t[module]"
        uint64_t address = 0;
        const char *first = line.data();
        const char *last = line.data() + line.size();
        auto [ptr, ec] = std::from_chars(first, last, address, 16);
        if (ec != std::errc() || last - ptr < 4 || ptr[0] != ' ' || ptr[2] != ' ')
            continue;
        const char type = ptr[1];
        const std::size_t name_begin = static_cast<std::size_t>(ptr + 3 - first);
        // The module, when there is one, follows a tab.
        std::size_t name_end = line.find('\t', name_begin);
        std::string_view module = kKernelImage;
        if (name_end == std::string_view::npos) {
            name_end = line.size();
        } else {
            const std::size_t open = line.find('[', name_end);
            const std::size_t close = line.rfind(']');
            if (open != std::string_view::npos && close != std::string_view::npos && close > open)
                module = line.substr(open + 1, close - open - 1);
        }
        // Absolute symbols ('A', 'a') are values, not addresses in the kernel.
        if (name_end == name_begin || type == 'A' || type == 'a')
            continue;
        uint32_t module_index = 0;
        if (module != kKernelImage) {
            if (module != last_module) {
                auto found = std::find(data->modules.begin(), data->modules.end(), module);
                last_module_index = static_cast<uint32_t>(found - data->modules.begin());
                if (found == data->modules.end())
                    data->modules.push_back(module);
                last_module = module;
            }
            module_index = last_module_index;
        }
        any_nonzero |= address != 0;
        data->entries.push_back(Entry{address, static_cast<uint32_t>(line_start + name_begin),
                                      static_cast<uint32_t>(name_end - name_begin), module_index,
                                      type});
    }

    if (!data->entries.empty() && !any_nonzero)
        return failure(
            std::string(source) +
            ": kernel symbol addresses are hidden (all read as zero): " + kptr_restrict_hint());
    if (data->entries.empty())
        return failure(std::string(source) + ": no symbols");

    // The file is nearly sorted (modules and bpf programs may not be): sort it
    // by address only when it is not, then order each run of names sharing an
    // address.
    auto preferred = [&](const Entry &a, const Entry &b) {
        const int ra = binding_rank(a.type), rb = binding_rank(b.type);
        if (ra != rb)
            return ra < rb;
        return leading_underscores(data->name_of(a)) < leading_underscores(data->name_of(b));
    };
    std::vector<Entry> &entries = data->entries;
    auto by_address = [](const Entry &a, const Entry &b) { return a.address < b.address; };
    if (!std::is_sorted(entries.begin(), entries.end(), by_address))
        std::stable_sort(entries.begin(), entries.end(), by_address);
    for (auto run = entries.begin(); run != entries.end();) {
        auto run_end = run + 1;
        while (run_end != entries.end() && run_end->address == run->address)
            ++run_end;
        if (run_end - run > 1)
            std::stable_sort(run, run_end, preferred);
        run = run_end;
    }
    data->addresses.reserve(data->entries.size());
    for (const Entry &e : data->entries)
        data->addresses.push_back(e.address);
    return KernelSymbolTable(std::move(data));
}

Result<KernelSymbolTable> KernelSymbolTable::load(const std::string &path) {
    int errnum = 0;
    // /proc/kallsyms is ~5 MB (~120k symbols) on a typical kernel.
    std::string text = read_whole_file(path, errnum, std::size_t{8} << 20);
    if (errnum != 0)
        return Error(path + ": " + std::strerror(errnum), errnum);
    return parse(std::move(text), path);
}

std::optional<KernelSymbol> KernelSymbolTable::resolve(uint64_t address) const {
    const std::vector<uint64_t> &addresses = data_->addresses;
    auto above = std::upper_bound(addresses.begin(), addresses.end(), address);
    if (above == addresses.begin())
        return std::nullopt;
    const uint64_t start = *(above - 1);
    // The last symbol has no known end: it covers only its own address.
    if (above == addresses.end() && address != start)
        return std::nullopt;
    // The preferred name comes first among those at `start`.
    auto first = std::lower_bound(addresses.begin(), above, start);
    const Entry &entry = data_->entries[static_cast<std::size_t>(first - addresses.begin())];
    return data_->symbol_of(entry, address - start);
}

std::string KernelSymbolTable::format(uint64_t address) const {
    if (std::optional<KernelSymbol> symbol = resolve(address)) {
        std::string text;
        text.reserve(symbol->module.size() + symbol->name.size() + 20);
        text.append(symbol->module).append("`").append(symbol->name);
        if (symbol->offset != 0) {
            char hex[24];
            auto [end, ec] = std::to_chars(hex, hex + sizeof hex, symbol->offset, 16);
            text.append("+0x").append(hex, end);
        }
        return text;
    }
    char hex[24];
    auto [end, ec] = std::to_chars(hex, hex + sizeof hex, address, 16);
    return "0x" + std::string(hex, end);
}

std::optional<KernelSymbol> KernelSymbolTable::find(std::string_view name,
                                                    std::string_view module) const {
    std::call_once(data_->names_built, [this] { data_->build_names(); });
    auto it = data_->first_by_name.find(name);
    if (it == data_->first_by_name.end())
        return std::nullopt;
    for (uint32_t index = it->second; index != UINT32_MAX; index = data_->next_same_name[index]) {
        const Entry &entry = data_->entries[index];
        if (module.empty() || data_->modules[entry.module] == module)
            return data_->symbol_of(entry, 0);
    }
    return std::nullopt;
}

std::optional<uint64_t> KernelSymbolTable::lookup(std::string_view name,
                                                  std::string_view module) const {
    if (std::optional<KernelSymbol> symbol = find(name, module))
        return symbol->start;
    return std::nullopt;
}

std::size_t KernelSymbolTable::size() const noexcept {
    return data_->entries.size();
}

KernelSymbols::KernelSymbols(std::string path) : path_(std::move(path)) {}

void KernelSymbols::load() const {
    std::call_once(loaded_, [this] {
        Result<KernelSymbolTable> result = KernelSymbolTable::load(path_);
        if (result)
            table_.emplace(std::move(*result));
        else
            error_ = result.error().message;
    });
}

const KernelSymbolTable *KernelSymbols::table() const {
    load();
    return table_ ? &*table_ : nullptr;
}

const std::string &KernelSymbols::error() const {
    load();
    return error_;
}

std::optional<KernelSymbol> KernelSymbols::resolve(uint64_t address) const {
    const KernelSymbolTable *symbols = table();
    return symbols ? symbols->resolve(address) : std::nullopt;
}

std::string KernelSymbols::format(uint64_t address) const {
    if (const KernelSymbolTable *symbols = table())
        return symbols->format(address);
    char hex[24];
    auto [end, ec] = std::to_chars(hex, hex + sizeof hex, address, 16);
    return "0x" + std::string(hex, end);
}

std::optional<uint64_t> KernelSymbols::lookup(std::string_view name,
                                              std::string_view module) const {
    const KernelSymbolTable *symbols = table();
    return symbols ? symbols->lookup(name, module) : std::nullopt;
}

} // namespace dtx::trace
