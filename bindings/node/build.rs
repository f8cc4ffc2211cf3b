//! Link settings napi-rs needs for a Node addon (e.g. `-z nodelete` on glibc, so the addon
//! is never unloaded while its thread-local destructors are pending).

fn main() {
    napi_build::setup();
}
