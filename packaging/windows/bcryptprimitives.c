/* A stand-in for Windows' bcryptprimitives.dll, for Wine 8.0, which has none (Wine 9 does).
 * Rust's standard library (1.78+) imports ProcessPrng from it for its random numbers (HashMap
 * seeds), so without it no Rust program for Windows starts under Wine 8.0. Used only by
 * `make test-windows` (packaging/windows/test.sh builds it with MinGW into the Wine prefix);
 * never shipped. It fills the buffer from RtlGenRandom (advapi32's SystemFunction036), Wine's
 * own random source, in pieces that fit RtlGenRandom's ULONG length. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG piece = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, piece)) return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
