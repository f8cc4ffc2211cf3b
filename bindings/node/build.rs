//! Link settings napi-rs needs for a Node addon (e.g. `-z nodelete` on glibc, so the addon
//! is never unloaded while its thread-local destructors are pending; `-undefined
//! dynamic_lookup` on macOS, where Node defines the Node-API symbols), and on macOS
//! `-dead_strip_dylibs` (see bindings/python/build.rs).
//!
//! On Windows with MinGW (`x86_64-pc-windows-gnu`) napi-build's setup is left out: there it
//! links `libnode.dll`, the library of a Node embedded in another program, and panics when none
//! is found. An addon needs nothing of it: napi-sys (its `dyn-symbols` feature, on by default)
//! looks every Node-API function up in the host process, `node.exe`, when the addon loads, so
//! the addon imports no Node symbol at link time (platforms/pe.py checks its imports).

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let target_env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if target_os != "windows" || target_env != "gnu" {
        napi_build::setup();
    }
    if target_os == "macos" {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-dead_strip_dylibs");
    }
}
