//! Link settings napi-rs needs for a Node addon (e.g. `-z nodelete` on glibc, so the addon
//! is never unloaded while its thread-local destructors are pending; `-undefined
//! dynamic_lookup` on macOS, where Node defines the Node-API symbols), and on macOS
//! `-dead_strip_dylibs` (see bindings/python/build.rs). With MinGW (`x86_64-pc-windows-gnu`)
//! napi-build links `-lnode` from the folder `LIBNODE_PATH` names, which must hold a `libnode.dll`:
//! packaging/dist-all.sh makes it an import library for `node.exe` from packaging/windows/node.def.

fn main() {
    napi_build::setup();
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("macos") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-dead_strip_dylibs");
    }
}
