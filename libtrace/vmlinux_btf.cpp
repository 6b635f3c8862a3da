#include "libtrace/vmlinux_btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <memory>

namespace dtx::trace {

const btf *vmlinux_btf() {
    struct Deleter {
        void operator()(btf *types) const { btf__free(types); }
    };
    static const std::unique_ptr<btf, Deleter> loaded = [] {
        btf *types = btf__load_vmlinux_btf();
        return std::unique_ptr<btf, Deleter>(libbpf_get_error(types) ? nullptr : types);
    }();
    return loaded.get();
}

} // namespace dtx::trace
