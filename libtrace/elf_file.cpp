#include "libtrace/elf_file.h"

#include "libtrace/fde_ranges.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace dtx::trace {

namespace {

using Binding = ElfFunction::Binding;

// The sections whose contents section() hands out (USDT notes).
constexpr std::string_view kCopiedSections[] = {".note.stapsdt", ".stapsdt.base"};

constexpr std::size_t kPltEntrySize = 16;

// A function symbol while files are read. The strings point into libelf's
// view of a file, so that a name is copied once, into the final ElfFunction,
// and not at all when it is a duplicate.
struct SymbolRecord {
    std::string_view name; // without version, without "@plt"
    std::string_view version;
    uint64_t address = 0;
    uint64_t size = 0;
    Binding binding = Binding::Global;
    bool default_version = false;
    bool plt_stub = false;
};

std::size_t leading_underscores(std::string_view name) {
    std::size_t n = 0;
    while (n < name.size() && name[n] == '_')
        ++n;
    return n;
}

// The order of functions(): by address, the preferred name first, as
// dtrace's libproc ranks the names of one address (and so names probes,
// ufunc() and ustack() frames): a global or weak name before a local one
// (global and weak alike), a name not starting with '$' (a compiler's
// prefix), fewer leading underscores, the smaller symbol, then the name
// that sorts first. Versions of one name: the default one first.
bool preferred_before(const SymbolRecord &a, const SymbolRecord &b) {
    if (a.address != b.address)
        return a.address < b.address;
    const bool a_local = a.binding == Binding::Local;
    if (a_local != (b.binding == Binding::Local))
        return !a_local;
    const bool a_dollar = a.name.starts_with('$');
    if (a_dollar != b.name.starts_with('$'))
        return !a_dollar;
    const std::size_t a_underscores = leading_underscores(a.name);
    const std::size_t b_underscores = leading_underscores(b.name);
    if (a_underscores != b_underscores)
        return a_underscores < b_underscores;
    if (a.size != b.size)
        return a.size < b.size;
    if (a.name != b.name)
        return a.name < b.name;
    if (a.default_version != b.default_version)
        return a.default_version;
    return a.version < b.version;
}

Binding binding_of(unsigned char st_info) {
    switch (GELF_ST_BIND(st_info)) {
    case STB_WEAK:
        return Binding::Weak;
    case STB_LOCAL:
        return Binding::Local;
    default: // STB_GLOBAL, STB_GNU_UNIQUE
        return Binding::Global;
    }
}

void ensure_libelf_initialized() {
    static const bool initialized = elf_version(EV_CURRENT) != EV_NONE;
    (void)initialized;
}

// An open file and its libelf descriptor, released together.
class ElfHandle {
public:
    ElfHandle() = default;
    ElfHandle(const ElfHandle &) = delete;
    ElfHandle &operator=(const ElfHandle &) = delete;
    ~ElfHandle() { close(); }

    // Opens `path` as ELF; fails naming it and why ("PATH: not an ELF
    // file"). Closes the file opened before, if any.
    Status open(const std::string &path) {
        close();
        ensure_libelf_initialized();
        fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            return Error(path + ": " + std::strerror(errno), errno);
        elf_ = elf_begin(fd_, ELF_C_READ_MMAP, nullptr);
        GElf_Ehdr header;
        if (!elf_ || elf_kind(elf_) != ELF_K_ELF || !gelf_getehdr(elf_, &header))
            return failure(path + ": not an ELF file");
        return {};
    }

    Elf *get() const { return elf_; }

private:
    void close() {
        if (elf_)
            elf_end(elf_);
        if (fd_ >= 0)
            ::close(fd_);
        elf_ = nullptr;
        fd_ = -1;
    }

    int fd_ = -1;
    Elf *elf_ = nullptr;
};

// The sections of one file that are read, found in one pass.
struct SectionMap {
    Elf_Scn *symtab = nullptr;
    Elf_Scn *dynsym = nullptr;
    Elf_Scn *versym = nullptr;
    Elf_Scn *verdef = nullptr;
    Elf_Scn *rela_plt = nullptr;
    Elf_Scn *rela_dyn = nullptr;
    Elf_Scn *plt = nullptr;
    Elf_Scn *plt_sec = nullptr;
    Elf_Scn *plt_got = nullptr;
    Elf_Scn *debuglink = nullptr;
    Elf_Scn *eh_frame = nullptr;
    std::vector<Elf_Scn *> notes;
    std::vector<std::pair<std::string_view, Elf_Scn *>> copied;
};

SectionMap map_sections(Elf *elf) {
    SectionMap map;
    std::size_t names_index = 0;
    const bool have_names = elf_getshdrstrndx(elf, &names_index) == 0;
    for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header))
            continue;
        const char *raw_name = have_names ? elf_strptr(elf, names_index, header.sh_name) : nullptr;
        const std::string_view name = raw_name ? raw_name : "";
        auto first = [scn](Elf_Scn *&slot) {
            if (!slot)
                slot = scn;
        };
        switch (header.sh_type) {
        case SHT_SYMTAB:
            first(map.symtab);
            break;
        case SHT_DYNSYM:
            first(map.dynsym);
            break;
        case SHT_GNU_versym:
            first(map.versym);
            break;
        case SHT_GNU_verdef:
            first(map.verdef);
            break;
        case SHT_NOTE:
            map.notes.push_back(scn);
            break;
        case SHT_RELA:
            if (name == ".rela.plt")
                first(map.rela_plt);
            else if (name == ".rela.dyn")
                first(map.rela_dyn);
            break;
        case SHT_PROGBITS:
            if (name == ".plt")
                first(map.plt);
            else if (name == ".plt.sec")
                first(map.plt_sec);
            else if (name == ".plt.got")
                first(map.plt_got);
            else if (name == ".gnu_debuglink")
                first(map.debuglink);
            break;
        }
        // (.eh_frame is SHT_X86_64_UNWIND where lld links it.)
        if (name == ".eh_frame" && header.sh_type != SHT_NOBITS)
            first(map.eh_frame);
        for (std::string_view copied : kCopiedSections)
            if (name == copied)
                map.copied.emplace_back(copied, scn);
    }
    return map;
}

std::string hex(const unsigned char *bytes, std::size_t size) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string text;
    text.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        text += kDigits[bytes[i] >> 4];
        text += kDigits[bytes[i] & 0xf];
    }
    return text;
}

// The NT_GNU_BUILD_ID note's description in `notes`, as hex; empty when none.
std::string build_id_in(const Elf_Data *notes) {
    if (!notes || !notes->d_buf)
        return {};
    const auto *bytes = static_cast<const unsigned char *>(notes->d_buf);
    GElf_Nhdr note;
    std::size_t name_offset = 0, desc_offset = 0;
    for (std::size_t offset = 0; (offset = gelf_getnote(const_cast<Elf_Data *>(notes), offset,
                                                        &note, &name_offset, &desc_offset)) > 0;) {
        if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 &&
            std::memcmp(bytes + name_offset, "GNU", 4) == 0 && note.n_descsz > 0)
            return hex(bytes + desc_offset, note.n_descsz);
    }
    return {};
}

// From the note sections, or from PT_NOTE segments when the section headers
// are gone (sstrip).
std::string read_build_id(Elf *elf, const SectionMap &sections) {
    for (Elf_Scn *scn : sections.notes)
        if (std::string id = build_id_in(elf_getdata(scn, nullptr)); !id.empty())
            return id;
    std::size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0)
        return {};
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Phdr header;
        if (!gelf_getphdr(elf, static_cast<int>(i), &header) || header.p_type != PT_NOTE)
            continue;
        Elf_Data *notes =
            elf_getdata_rawchunk(elf, static_cast<int64_t>(header.p_offset), header.p_filesz,
                                 header.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
        if (std::string id = build_id_in(notes); !id.empty())
            return id;
    }
    return {};
}

// The names of the versions this file defines (.gnu.version_d), by index as
// .gnu.version refers to them.
std::vector<std::string_view> read_version_definitions(Elf *elf, Elf_Scn *verdef) {
    std::vector<std::string_view> names;
    GElf_Shdr header;
    Elf_Data *data = verdef ? elf_getdata(verdef, nullptr) : nullptr;
    if (!data || !gelf_getshdr(verdef, &header))
        return names;
    std::size_t offset = 0;
    for (GElf_Word i = 0; i < header.sh_info; ++i) {
        GElf_Verdef definition;
        GElf_Verdaux auxiliary;
        if (!gelf_getverdef(data, static_cast<int>(offset), &definition) ||
            !gelf_getverdaux(data, static_cast<int>(offset + definition.vd_aux), &auxiliary))
            break;
        const char *name = elf_strptr(elf, header.sh_link, auxiliary.vda_name);
        const GElf_Half index = definition.vd_ndx & 0x7fff;
        // The base definition names the file itself (its soname), not a version.
        if (name && !(definition.vd_flags & VER_FLG_BASE)) {
            if (names.size() <= index)
                names.resize(index + 1);
            names[index] = name;
        }
        if (definition.vd_next == 0)
            break;
        offset += definition.vd_next;
    }
    return names;
}

// Appends the defined function symbols of `table`. .dynsym carries versions
// in .gnu.version (`versym`); .symtab spells them into the name ("f@@V").
void read_symbols(Elf *elf, Elf_Scn *table, Elf_Scn *versym,
                  const std::vector<std::string_view> &version_names,
                  std::vector<SymbolRecord> &records) {
    GElf_Shdr header;
    Elf_Data *data = table ? elf_getdata(table, nullptr) : nullptr;
    if (!data || !gelf_getshdr(table, &header))
        return;
    Elf_Data *versions = versym ? elf_getdata(versym, nullptr) : nullptr;
    const std::size_t entry_size = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    const std::size_t count = entry_size ? data->d_size / entry_size : 0;
    records.reserve(records.size() + count);
    for (std::size_t i = 1; i < count; ++i) {
        GElf_Sym symbol;
        if (!gelf_getsym(data, static_cast<int>(i), &symbol))
            break;
        const int type = GELF_ST_TYPE(symbol.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || symbol.st_value == 0 ||
            symbol.st_shndx == SHN_UNDEF)
            continue;
        const char *raw_name = elf_strptr(elf, header.sh_link, symbol.st_name);
        if (!raw_name || !*raw_name)
            continue;
        SymbolRecord record;
        record.name = raw_name;
        record.address = symbol.st_value;
        record.size = symbol.st_size;
        record.binding = binding_of(symbol.st_info);
        GElf_Versym version;
        if (versions && gelf_getversym(versions, static_cast<int>(i), &version)) {
            const GElf_Versym index = version & 0x7fff;
            if (index < version_names.size() && !version_names[index].empty()) {
                record.version = version_names[index];
                record.default_version = !(version & 0x8000);
            }
        } else if (std::size_t at = record.name.find('@'); at != std::string_view::npos) {
            const bool is_default = record.name.substr(at).starts_with("@@");
            record.version = record.name.substr(at + (is_default ? 2 : 1));
            record.default_version = is_default;
            record.name = record.name.substr(0, at);
            if (record.name.empty())
                continue;
        }
        records.push_back(record);
    }
}

// Merges the entries one symbol has in several tables: the same name at the
// same address, unless both name different versions. Leaves `records` in
// preferred_before() order.
void deduplicate(std::vector<SymbolRecord> &records) {
    std::sort(records.begin(), records.end(), [](const SymbolRecord &a, const SymbolRecord &b) {
        if (a.address != b.address)
            return a.address < b.address;
        if (a.name != b.name)
            return a.name < b.name;
        return a.version < b.version; // the unversioned first, to merge into the next
    });
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        SymbolRecord &current = records[i];
        if (kept > 0) {
            SymbolRecord &last = records[kept - 1];
            if (last.address == current.address && last.name == current.name &&
                (last.version.empty() || current.version.empty() ||
                 last.version == current.version)) {
                if (last.version.empty()) {
                    last.version = current.version;
                    last.default_version = current.default_version;
                }
                last.size = std::max(last.size, current.size);
                last.binding = std::min(last.binding, current.binding);
                continue;
            }
        }
        records[kept++] = current;
    }
    records.resize(kept);
    std::sort(records.begin(), records.end(), preferred_before);
}

// What a GOT slot that a PLT entry jumps through is for: a named function
// (JUMP_SLOT, GLOB_DAT) or, for IRELATIVE, the resolver of an IFUNC.
struct GotSlot {
    uint64_t address = 0;
    std::string_view name;
    uint64_t resolver = 0;
};

void read_got_slots(Elf *elf, Elf_Scn *relocations, bool jump_slots, std::vector<GotSlot> &slots) {
    GElf_Shdr header, symbols_header;
    Elf_Data *data = relocations ? elf_getdata(relocations, nullptr) : nullptr;
    if (!data || !gelf_getshdr(relocations, &header))
        return;
    Elf_Scn *symbols_scn = elf_getscn(elf, header.sh_link);
    Elf_Data *symbols = symbols_scn ? elf_getdata(symbols_scn, nullptr) : nullptr;
    if (!symbols || !gelf_getshdr(symbols_scn, &symbols_header))
        return;
    const std::size_t entry_size = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
    const std::size_t count = entry_size ? data->d_size / entry_size : 0;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Rela relocation;
        if (!gelf_getrela(data, static_cast<int>(i), &relocation))
            break;
        const auto type = GELF_R_TYPE(relocation.r_info);
        if (jump_slots && type == R_X86_64_IRELATIVE) {
            slots.push_back({relocation.r_offset, {}, static_cast<uint64_t>(relocation.r_addend)});
            continue;
        }
        if (type != (jump_slots ? R_X86_64_JUMP_SLOT : R_X86_64_GLOB_DAT))
            continue;
        GElf_Sym symbol;
        if (!gelf_getsym(symbols, static_cast<int>(GELF_R_SYM(relocation.r_info)), &symbol))
            continue;
        const char *name = elf_strptr(elf, symbols_header.sh_link, symbol.st_name);
        if (name && *name)
            slots.push_back({relocation.r_offset, name, 0});
    }
}

// The GOT slot an x86-64 PLT entry jumps through: the entry is
// [endbr64] [bnd] jmp *disp32(%rip), then padding. Lazy-binding entries
// (push index; jmp PLT0) and PLT0 (push GOT+8) do not match.
std::optional<uint64_t> plt_entry_target(const unsigned char *entry, std::size_t size,
                                         uint64_t address) {
    static constexpr unsigned char kEndbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
    std::size_t at = 0;
    if (size >= sizeof(kEndbr64) && std::memcmp(entry, kEndbr64, sizeof(kEndbr64)) == 0)
        at += sizeof(kEndbr64);
    if (at < size && entry[at] == 0xf2)
        ++at;
    if (at + 6 > size || entry[at] != 0xff || entry[at + 1] != 0x25)
        return std::nullopt;
    int32_t displacement;
    std::memcpy(&displacement, entry + at + 2, sizeof(displacement));
    return address + at + 6 + static_cast<int64_t>(displacement);
}

// One "NAME@plt" record per PLT entry (.plt, .plt.sec, .plt.got) of an
// x86-64 file, named by decoding the entry's jump and finding the relocation
// of the GOT slot it jumps through, as objdump does. This is independent of
// the layout: with IBT, .plt holds the lazy-binding entries and .plt.sec the
// ones calls go to. An IRELATIVE slot (a call to an IFUNC of the file itself,
// which objdump names "*ABS*+0x...@plt") takes the IFUNC's name. `functions`
// is in preferred_before() order.
void read_plt_stubs(Elf *elf, const SectionMap &sections,
                    const std::vector<SymbolRecord> &functions, std::vector<SymbolRecord> &stubs) {
    GElf_Ehdr header;
    if (!gelf_getehdr(elf, &header) || header.e_machine != EM_X86_64 ||
        gelf_getclass(elf) != ELFCLASS64)
        return;
    std::vector<GotSlot> slots;
    read_got_slots(elf, sections.rela_plt, true, slots);
    if (sections.plt_got)
        read_got_slots(elf, sections.rela_dyn, false, slots);
    if (slots.empty())
        return;
    std::sort(slots.begin(), slots.end(),
              [](const GotSlot &a, const GotSlot &b) { return a.address < b.address; });

    for (Elf_Scn *scn : {sections.plt, sections.plt_sec, sections.plt_got}) {
        GElf_Shdr plt;
        Elf_Data *data = scn ? elf_rawdata(scn, nullptr) : nullptr;
        if (!data || !data->d_buf || !gelf_getshdr(scn, &plt))
            continue;
        const std::size_t entry_size =
            plt.sh_entsize == 8 || plt.sh_entsize == 16 ? plt.sh_entsize : kPltEntrySize;
        const auto *bytes = static_cast<const unsigned char *>(data->d_buf);
        for (std::size_t at = 0; at + entry_size <= data->d_size; at += entry_size) {
            const uint64_t address = plt.sh_addr + at;
            const std::optional<uint64_t> target =
                plt_entry_target(bytes + at, entry_size, address);
            if (!target)
                continue;
            auto slot = std::lower_bound(
                slots.begin(), slots.end(), *target,
                [](const GotSlot &slot, uint64_t address) { return slot.address < address; });
            if (slot == slots.end() || slot->address != *target)
                continue;
            std::string_view name = slot->name;
            if (name.empty()) {
                auto ifunc = std::lower_bound(
                    functions.begin(), functions.end(), slot->resolver,
                    [](const SymbolRecord &f, uint64_t address) { return f.address < address; });
                if (ifunc == functions.end() || ifunc->address != slot->resolver)
                    continue;
                name = ifunc->name;
            }
            SymbolRecord &stub = stubs.emplace_back();
            stub.name = name;
            stub.address = address;
            stub.size = entry_size;
            stub.binding = Binding::Local;
            stub.plt_stub = true;
        }
    }
}

// Where the functions that .eh_frame describes start and end, sorted: each
// FDE's initial location and the end of its address range. An FDE the
// reader does not understand is left out.
std::vector<uint64_t> read_unwind_boundaries(Elf *elf, Elf_Scn *eh_frame) {
    std::vector<uint64_t> boundaries;
    GElf_Shdr header;
    Elf_Data *data = eh_frame ? elf_rawdata(eh_frame, nullptr) : nullptr;
    const auto *ident = reinterpret_cast<const unsigned char *>(elf_getident(elf, nullptr));
    if (!data || !data->d_buf || !ident || !gelf_getshdr(eh_frame, &header))
        return boundaries;
    const std::size_t address_size = gelf_getclass(elf) == ELFCLASS32 ? 4 : 8;
    for_each_fde(ident, data, true, header.sh_addr, address_size,
                 [&boundaries](std::optional<FdeRange> range) {
                     if (!range || range->end == range->start)
                         return;
                     boundaries.push_back(range->start);
                     boundaries.push_back(range->end);
                 });
    std::sort(boundaries.begin(), boundaries.end());
    boundaries.erase(std::unique(boundaries.begin(), boundaries.end()), boundaries.end());
    return boundaries;
}

std::string directory_of(const std::string &path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

bool is_regular_file(const std::string &path) {
    struct stat status;
    return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

// Opens the separate debug file of the file at `path` into `debug`: by
// build-id, else by .gnu_debuglink in the usual places. A debug file whose
// build-id differs from the file's is not its own (a stale copy), and is
// skipped; this stands in for the debuglink CRC, which would need a read of
// the whole debug file.
bool open_debug_file(const SectionMap &sections, const std::string &path,
                     const std::string &build_id, ElfHandle &debug) {
    std::vector<std::string> candidates;
    if (build_id.size() > 2)
        candidates.push_back("/usr/lib/debug/.build-id/" + build_id.substr(0, 2) + "/" +
                             build_id.substr(2) + ".debug");
    Elf_Data *link = sections.debuglink ? elf_rawdata(sections.debuglink, nullptr) : nullptr;
    if (link && link->d_buf) {
        const auto *text = static_cast<const char *>(link->d_buf);
        const std::string_view name(text, strnlen(text, link->d_size));
        // A debuglink is a file name; a path in it would look outside the
        // debug directories.
        if (!name.empty() && name.size() < link->d_size &&
            name.find('/') == std::string_view::npos) {
            const std::string directory = directory_of(path);
            candidates.push_back(directory + "/" + std::string(name));
            candidates.push_back(directory + "/.debug/" + std::string(name));
            if (directory.starts_with("/"))
                candidates.push_back("/usr/lib/debug" + directory + "/" + std::string(name));
        }
    }
    for (const std::string &candidate : candidates) {
        if (candidate == path || !is_regular_file(candidate) || !debug.open(candidate))
            continue;
        const std::string debug_id =
            build_id.empty() ? "" : read_build_id(debug.get(), map_sections(debug.get()));
        if (debug_id.empty() || debug_id == build_id)
            return true;
    }
    return false;
}

} // namespace

struct ElfFileLoader {
    static Result<std::shared_ptr<const ElfFile>> load(const std::string &path) {
        ElfHandle handle;
        if (Status opened = handle.open(path); !opened)
            return std::move(opened).error();
        Elf *elf = handle.get();
        GElf_Ehdr header;
        gelf_getehdr(elf, &header);

        std::shared_ptr<ElfFile> file(new ElfFile);
        file->path_ = path;
        file->position_independent_ = header.e_type == ET_DYN;
        file->segments_ = read_load_segments(elf);
        const SectionMap sections = map_sections(elf);
        file->build_id_ = read_build_id(elf, sections);

        std::vector<SymbolRecord> records;
        read_symbols(elf, sections.symtab, nullptr, {}, records);
        read_symbols(elf, sections.dynsym, sections.versym,
                     read_version_definitions(elf, sections.verdef), records);
        // A file with .symtab has its local functions already; only a
        // stripped one needs its debug file.
        ElfHandle debug;
        if (!sections.symtab && open_debug_file(sections, path, file->build_id_, debug))
            read_symbols(debug.get(), map_sections(debug.get()).symtab, nullptr, {}, records);
        deduplicate(records);

        std::vector<SymbolRecord> stubs;
        read_plt_stubs(elf, sections, records, stubs);
        if (!stubs.empty()) {
            std::sort(stubs.begin(), stubs.end(), preferred_before);
            const auto middle = records.insert(records.end(), stubs.begin(), stubs.end());
            std::inplace_merge(records.begin(), middle, records.end(), preferred_before);
        }

        file->functions_.reserve(records.size());
        for (const SymbolRecord &record : records) {
            ElfFunction &function = file->functions_.emplace_back();
            function.name.reserve(record.name.size() + (record.plt_stub ? 4 : 0));
            function.name.append(record.name);
            if (record.plt_stub)
                function.name.append("@plt");
            function.version = record.version;
            function.address = record.address;
            function.size = record.size;
            function.binding = record.binding;
            function.plt_stub = record.plt_stub;
            function.default_version = record.default_version;
        }
        // Only a function without size needs to know where .eh_frame says
        // functions end.
        const bool any_sizeless = std::any_of(records.begin(), records.end(),
                                              [](const SymbolRecord &r) { return r.size == 0; });
        compute_coverage(*file, any_sizeless ? read_unwind_boundaries(elf, sections.eh_frame)
                                             : std::vector<uint64_t>{});
        copy_sections(*file, sections);
        return std::shared_ptr<const ElfFile>(std::move(file));
    }

    // ElfFile::coverage_ for function_at(). A function without size covers
    // up to the next function's address, within its executable segment, and
    // not past the first of `unwind_boundaries` (.eh_frame's function starts
    // and ends) beyond its address: the end of the FDE that holds it, or the
    // start of one that follows, which is another function even where no
    // symbol names it (a static function of a library stripped to .dynsym).
    static void compute_coverage(ElfFile &file, const std::vector<uint64_t> &unwind_boundaries) {
        const std::vector<ElfFunction> &functions = file.functions_;
        file.coverage_.resize(functions.size());
        uint64_t next_address = std::numeric_limits<uint64_t>::max();
        for (std::size_t i = functions.size(); i-- > 0;) {
            const ElfFunction &function = functions[i];
            if (i + 1 < functions.size() && functions[i + 1].address != function.address)
                next_address = functions[i + 1].address;
            uint64_t end = function.address + 1;
            if (function.size > 0) {
                end = function.address + function.size;
                if (end < function.address)
                    end = std::numeric_limits<uint64_t>::max();
            } else {
                for (const ElfSegment &segment : file.segments_)
                    if (segment.executable && function.address >= segment.vaddr &&
                        function.address - segment.vaddr < segment.memsz)
                        // (A segment reaching past 2^64 ends there, not wrapped below.)
                        end = std::min(next_address, segment.memsz > UINT64_MAX - segment.vaddr
                                                         ? UINT64_MAX
                                                         : segment.vaddr + segment.memsz);
                auto boundary = std::upper_bound(unwind_boundaries.begin(), unwind_boundaries.end(),
                                                 function.address);
                if (boundary != unwind_boundaries.end())
                    end = std::min(end, *boundary);
            }
            file.coverage_[i].end = end;
        }
        uint64_t reach = 0;
        for (ElfFile::Coverage &coverage : file.coverage_) {
            reach = std::max(reach, coverage.end);
            coverage.reach = reach;
        }
    }

    static void copy_sections(ElfFile &file, const SectionMap &sections) {
        for (const auto &[name, scn] : sections.copied) {
            GElf_Shdr header;
            if (!gelf_getshdr(scn, &header))
                continue;
            ElfFile::SectionCopy &copy = file.sections_.emplace_back();
            copy.name = name;
            copy.address = header.sh_addr;
            Elf_Data *data = header.sh_type == SHT_NOBITS ? nullptr : elf_rawdata(scn, nullptr);
            if (data && data->d_buf) {
                const auto *bytes = static_cast<const std::byte *>(data->d_buf);
                copy.bytes.assign(bytes, bytes + data->d_size);
            }
        }
    }
};

std::vector<ElfSegment> read_load_segments(Elf *elf) {
    std::vector<ElfSegment> segments;
    std::size_t count = 0;
    if (elf_getphdrnum(elf, &count) != 0)
        return segments;
    for (std::size_t i = 0; i < count; ++i) {
        GElf_Phdr header;
        if (!gelf_getphdr(elf, static_cast<int>(i), &header) || header.p_type != PT_LOAD)
            continue;
        segments.push_back({header.p_vaddr, header.p_memsz, header.p_offset, header.p_filesz,
                            (header.p_flags & PF_X) != 0});
    }
    return segments;
}

const ElfSegment *file_segment_of(std::span<const ElfSegment> segments, uint64_t vaddr) {
    for (const ElfSegment &segment : segments)
        if (vaddr >= segment.vaddr && vaddr - segment.vaddr < segment.filesz)
            return &segment;
    return nullptr;
}

Result<std::shared_ptr<const ElfFile>> ElfFile::open(const std::string &path) {
    return ElfFileLoader::load(path);
}

ElfFile::~ElfFile() = default;

bool elf_file_has_section(const std::string &path, std::string_view name) {
    ElfHandle handle;
    if (!handle.open(path))
        return false;
    size_t names_index = 0;
    if (elf_getshdrstrndx(handle.get(), &names_index) != 0)
        return false;
    for (Elf_Scn *scn = elf_nextscn(handle.get(), nullptr); scn;
         scn = elf_nextscn(handle.get(), scn)) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header))
            continue;
        const char *section_name = elf_strptr(handle.get(), names_index, header.sh_name);
        if (section_name && name == section_name)
            return true;
    }
    return false;
}

std::vector<const ElfFunction *> ElfFile::find(std::string_view name) const {
    std::string_view version;
    bool default_only = false;
    if (std::size_t at = name.find('@');
        at != std::string_view::npos && name.substr(at) != "@plt") {
        default_only = name.substr(at).starts_with("@@");
        version = name.substr(at + (default_only ? 2 : 1));
        name = name.substr(0, at);
    }
    std::vector<const ElfFunction *> found;
    for (const ElfFunction &function : functions_) {
        if (function.name != name)
            continue;
        if (!version.empty() &&
            (function.version != version || (default_only && !function.default_version)))
            continue;
        found.push_back(&function);
    }
    return found;
}

const ElfFunction *ElfFile::function_at(uint64_t vaddr) const {
    auto above = std::upper_bound(
        functions_.begin(), functions_.end(), vaddr,
        [](uint64_t address, const ElfFunction &function) { return address < function.address; });
    // Back from the nearest function below, so the innermost of nested
    // functions wins; within one address, functions_ has the preferred first.
    std::size_t i = static_cast<std::size_t>(above - functions_.begin());
    while (i > 0 && coverage_[i - 1].reach > vaddr) {
        std::size_t group = i - 1;
        while (group > 0 && functions_[group - 1].address == functions_[i - 1].address)
            --group;
        for (std::size_t j = group; j < i; ++j)
            if (coverage_[j].end > vaddr)
                return &functions_[j];
        i = group;
    }
    return nullptr;
}

std::optional<uint64_t> ElfFile::file_offset(uint64_t vaddr) const {
    if (const ElfSegment *segment = file_segment_of(segments_, vaddr))
        return segment->offset + (vaddr - segment->vaddr);
    return std::nullopt;
}

std::optional<uint64_t> ElfFile::vaddr_of_offset(uint64_t offset) const {
    for (const ElfSegment &segment : segments_)
        if (offset >= segment.offset && offset - segment.offset < segment.filesz)
            return segment.vaddr + (offset - segment.offset);
    return std::nullopt;
}

std::optional<ElfFile::Section> ElfFile::section(std::string_view name) const {
    for (const SectionCopy &copy : sections_)
        if (copy.name == name)
            return Section{copy.address, copy.bytes};
    return std::nullopt;
}

Result<std::shared_ptr<const ElfFile>> ElfFileCache::get(const std::string &path) {
    struct stat status;
    if (::stat(path.c_str(), &status) != 0)
        return Error(path + ": " + std::strerror(errno), errno);
    const Key key{status.st_dev, status.st_ino, status.st_size,
                  static_cast<int64_t>(status.st_mtim.tv_sec) * 1'000'000'000 +
                      status.st_mtim.tv_nsec};
    {
        std::lock_guard lock(mutex_);
        for (const auto &[cached_key, file] : files_)
            if (cached_key == key)
                return file;
    }
    // Read outside the lock: other threads' lookups need not wait for it.
    Result<std::shared_ptr<const ElfFile>> opened = ElfFile::open(path);
    if (opened) {
        std::lock_guard lock(mutex_);
        for (const auto &[cached_key, cached] : files_)
            if (cached_key == key)
                return cached; // another thread read it meanwhile
        // A file rewritten in place keeps its inode: its old contents are gone.
        std::erase_if(files_, [&key](const auto &entry) {
            return entry.first.device == key.device && entry.first.inode == key.inode;
        });
        files_.emplace_back(key, *opened);
    }
    return opened;
}

// USDT operands name variables (8@counter(%rip)), which functions() does not
// keep; only probe compilation asks, so the file is read again here.
std::optional<uint64_t> ElfFile::data_symbol(std::string_view name) const {
    ElfHandle handle;
    if (!handle.open(path_))
        return std::nullopt;
    Elf_Scn *scn = nullptr;
    while ((scn = elf_nextscn(handle.get(), scn)) != nullptr) {
        GElf_Shdr header;
        if (!gelf_getshdr(scn, &header) ||
            (header.sh_type != SHT_SYMTAB && header.sh_type != SHT_DYNSYM) ||
            header.sh_entsize == 0)
            continue;
        Elf_Data *data = elf_getdata(scn, nullptr);
        for (std::size_t i = 0; data && i < header.sh_size / header.sh_entsize; ++i) {
            GElf_Sym symbol;
            if (!gelf_getsym(data, static_cast<int>(i), &symbol) || symbol.st_shndx == SHN_UNDEF ||
                GELF_ST_TYPE(symbol.st_info) == STT_SECTION ||
                GELF_ST_TYPE(symbol.st_info) == STT_FILE)
                continue;
            const char *symbol_name = elf_strptr(handle.get(), header.sh_link, symbol.st_name);
            if (symbol_name && name == symbol_name)
                return symbol.st_value;
        }
    }
    return std::nullopt;
}

} // namespace dtx::trace
