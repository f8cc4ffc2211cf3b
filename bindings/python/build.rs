//! On macOS, links with `-dead_strip_dylibs`: the libc crate asks for libiconv on every Apple
//! target, and without it the module would load /usr/lib/libiconv.2.dylib and
//! libcharset.1.dylib though it uses neither (packaging/macho.py allows libSystem alone).
//! maturin adds `-undefined dynamic_lookup`, for the C API that CPython defines.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("macos") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-dead_strip_dylibs");
    }
}
