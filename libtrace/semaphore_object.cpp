#include "libtrace/semaphore_object.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string_view>

namespace dtx::trace {

namespace {

// Appends integers of the object's class and byte order.
class ElfWriter {
public:
    explicit ElfWriter(const ObjectFormat &format)
        : big_endian_(format.data == ELFDATA2MSB), wide_(format.elf_class == ELFCLASS64) {}

    void u8(uint64_t value) { put(value, 1); }
    void u16(uint64_t value) { put(value, 2); }
    void u32(uint64_t value) { put(value, 4); }
    // An address, offset or size: 8 bytes in a 64-bit object, 4 in a 32-bit one.
    void word(uint64_t value) { put(value, wide_ ? 8 : 4); }
    void bytes(std::string_view data) { out_.append(data); }
    void align(size_t alignment) {
        out_.resize((out_.size() + alignment - 1) / alignment * alignment);
    }
    size_t size() const { return out_.size(); }
    bool wide() const { return wide_; }
    std::string take() { return std::move(out_); }

private:
    void put(uint64_t value, int size) {
        for (int i = 0; i < size; i++) {
            int shift = 8 * (big_endian_ ? size - 1 - i : i);
            out_ += char((value >> shift) & 0xff);
        }
    }

    bool big_endian_;
    bool wide_;
    std::string out_;
};

// A string table: "\0name\0name\0...", each name's offset kept.
struct StringTable {
    std::string text{'\0'};
    uint32_t add(std::string_view name) {
        auto offset = uint32_t(text.size());
        text.append(name);
        text += '\0';
        return offset;
    }
};

struct Section {
    uint32_t name = 0;
    uint32_t type = SHT_NULL;
    uint64_t flags = 0;
    uint64_t offset = 0;
    uint64_t size = 0;
    uint32_t link = 0;
    uint32_t info = 0;
    uint64_t alignment = 0;
    uint64_t entry_size = 0;
};

void write_symbol(ElfWriter &out, uint32_t name, uint8_t info, uint8_t other, uint16_t section,
                  uint64_t value, uint64_t size) {
    if (out.wide()) {
        out.u32(name);
        out.u8(info);
        out.u8(other);
        out.u16(section);
        out.word(value);
        out.word(size);
    } else {
        out.u32(name);
        out.word(value);
        out.word(size);
        out.u8(info);
        out.u8(other);
        out.u16(section);
    }
}

void write_section_header(ElfWriter &out, const Section &section) {
    out.u32(section.name);
    out.u32(section.type);
    out.word(section.flags);
    out.word(0); // sh_addr: a relocatable object is placed by the linker
    out.word(section.offset);
    out.word(section.size);
    out.u32(section.link);
    out.u32(section.info);
    out.word(section.alignment);
    out.word(section.entry_size);
}

} // namespace

ObjectFormat host_object_format() {
    ObjectFormat format;
    format.elf_class = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    format.data = ELFDATA2MSB;
#else
    format.data = ELFDATA2LSB;
#endif
#if defined(__x86_64__)
    format.machine = EM_X86_64;
#elif defined(__i386__)
    format.machine = EM_386;
#elif defined(__aarch64__)
    format.machine = EM_AARCH64;
#elif defined(__arm__)
    format.machine = EM_ARM;
    format.flags = EF_ARM_EABI_VER5;
#elif defined(__riscv)
    format.machine = EM_RISCV;
#if defined(__riscv_float_abi_double)
    format.flags = EF_RISCV_FLOAT_ABI_DOUBLE;
#endif
#elif defined(__powerpc64__)
    format.machine = EM_PPC64;
#if _CALL_ELF == 2
    format.flags = 2; // ELFv2 ABI
#endif
#elif defined(__s390x__)
    format.machine = EM_S390;
#else
#error "dtx -G: no ELF machine known for this architecture"
#endif
    return format;
}

Result<ObjectFormat> object_format_of(const std::string &path) {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno_error(path, "open", errno);
    unsigned char header[sizeof(Elf64_Ehdr)] = {};
    ssize_t got = read(fd, header, sizeof header);
    int read_errno = errno;
    close(fd);
    if (got < 0)
        return errno_error(path, "read", read_errno);
    if (size_t(got) < sizeof(Elf32_Ehdr) || std::memcmp(header, ELFMAG, SELFMAG) != 0)
        return failure(path + ": not an ELF object");
    ObjectFormat format;
    format.elf_class = header[EI_CLASS];
    format.data = header[EI_DATA];
    format.os_abi = header[EI_OSABI];
    if ((format.elf_class != ELFCLASS32 && format.elf_class != ELFCLASS64) ||
        (format.data != ELFDATA2LSB && format.data != ELFDATA2MSB) ||
        (format.elf_class == ELFCLASS64 && size_t(got) < sizeof(Elf64_Ehdr)))
        return failure(path + ": not an ELF object of a class and byte order dtx knows");
    auto field = [&](size_t offset, int size) {
        uint64_t value = 0;
        for (int i = 0; i < size; i++) {
            int shift = 8 * (format.data == ELFDATA2MSB ? size - 1 - i : i);
            value |= uint64_t(header[offset + i]) << shift;
        }
        return value;
    };
    format.machine = uint16_t(field(offsetof(Elf64_Ehdr, e_machine), 2));
    format.flags =
        uint32_t(format.elf_class == ELFCLASS64 ? field(offsetof(Elf64_Ehdr, e_flags), 4)
                                                : field(offsetof(Elf32_Ehdr, e_flags), 4));
    return format;
}

std::string semaphore_object(std::span<const std::string> semaphores, const ObjectFormat &format,
                             std::string_view source_name) {
    enum : uint16_t { kNull, kProbes, kNoteStack, kSymtab, kStrtab, kShstrtab, kSections };
    ElfWriter out(format);
    const bool wide = out.wide();
    const size_t header_size = wide ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    const size_t symbol_size = wide ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
    const size_t section_header_size = wide ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
    const size_t word_size = wide ? 8 : 4;

    StringTable section_names;
    Section sections[kSections];
    sections[kProbes] = {section_names.add(".probes"), SHT_PROGBITS, SHF_ALLOC | SHF_WRITE};
    sections[kProbes].alignment = 2;
    sections[kProbes].size = 2 * semaphores.size();
    // An empty .note.GNU-stack says the object needs no executable stack
    // (without it the linker warns, and may make the stack executable).
    sections[kNoteStack] = {section_names.add(".note.GNU-stack"), SHT_PROGBITS};
    sections[kNoteStack].alignment = 1;
    sections[kSymtab] = {section_names.add(".symtab"), SHT_SYMTAB};
    sections[kStrtab] = {section_names.add(".strtab"), SHT_STRTAB};
    sections[kShstrtab] = {section_names.add(".shstrtab"), SHT_STRTAB};

    // Symbols: the null one, the source file's and .probes' (local), then
    // each semaphore (global, hidden).
    StringTable symbol_names;
    ElfWriter symbols(format);
    write_symbol(symbols, 0, 0, 0, SHN_UNDEF, 0, 0);
    write_symbol(symbols, symbol_names.add(source_name), ELF32_ST_INFO(STB_LOCAL, STT_FILE),
                 STV_DEFAULT, SHN_ABS, 0, 0);
    write_symbol(symbols, 0, ELF32_ST_INFO(STB_LOCAL, STT_SECTION), STV_DEFAULT, kProbes, 0, 0);
    const uint32_t first_global = 3;
    for (size_t i = 0; i < semaphores.size(); i++)
        write_symbol(symbols, symbol_names.add(semaphores[i]),
                     ELF32_ST_INFO(STB_GLOBAL, STT_OBJECT), STV_HIDDEN, kProbes, 2 * i, 2);

    // The file: header, .probes, .symtab, .strtab, .shstrtab, section headers.
    out.bytes(std::string(header_size, '\0'));
    out.align(2);
    sections[kProbes].offset = out.size();
    out.bytes(std::string(sections[kProbes].size, '\0'));
    sections[kNoteStack].offset = out.size();
    out.align(word_size);
    std::string symbol_table = symbols.take();
    sections[kSymtab].offset = out.size();
    sections[kSymtab].size = symbol_table.size();
    sections[kSymtab].link = kStrtab;
    sections[kSymtab].info = first_global;
    sections[kSymtab].alignment = word_size;
    sections[kSymtab].entry_size = symbol_size;
    out.bytes(symbol_table);
    sections[kStrtab].offset = out.size();
    sections[kStrtab].size = symbol_names.text.size();
    sections[kStrtab].alignment = 1;
    out.bytes(symbol_names.text);
    sections[kShstrtab].offset = out.size();
    sections[kShstrtab].size = section_names.text.size();
    sections[kShstrtab].alignment = 1;
    out.bytes(section_names.text);
    out.align(word_size);
    const size_t section_headers = out.size();
    for (const Section &section : sections)
        write_section_header(out, section);

    std::string file = out.take();
    ElfWriter header(format);
    header.bytes(std::string_view(ELFMAG, SELFMAG));
    header.u8(format.elf_class);
    header.u8(format.data);
    header.u8(EV_CURRENT);
    header.u8(format.os_abi);
    header.bytes(std::string(EI_NIDENT - EI_ABIVERSION, '\0'));
    header.u16(ET_REL);
    header.u16(format.machine);
    header.u32(EV_CURRENT);
    header.word(0); // e_entry
    header.word(0); // e_phoff
    header.word(section_headers);
    header.u32(format.flags);
    header.u16(header_size);
    header.u16(0); // e_phentsize
    header.u16(0); // e_phnum
    header.u16(section_header_size);
    header.u16(kSections);
    header.u16(kShstrtab);
    std::string header_bytes = header.take();
    file.replace(0, header_bytes.size(), header_bytes);
    return file;
}

} // namespace dtx::trace
