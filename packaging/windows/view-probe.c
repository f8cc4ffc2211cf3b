/* Whether this Windows (or Wine) maps a view larger than its file-backed section when the view
 * is only reserved (MEM_RESERVE): LMDB, which keeps the frecency store, maps its whole map size
 * that way over a file that grows later. Windows does; Wine 8.0 refuses with
 * STATUS_INVALID_VIEW_SIZE (0xC000001F), which LMDB reports as Win32 error 5, "Access denied".
 * packaging/windows/test.sh runs it under Wine and skips the frecency tests only when it prints
 * "refused". Exit status 0 either way; it writes scratch files in the current directory. */
#include <windows.h>
#include <stdio.h>

typedef LONG(WINAPI *CreateSection)(PHANDLE, ACCESS_MASK, void *, PLARGE_INTEGER, ULONG, ULONG, HANDLE);
typedef LONG(WINAPI *MapView)(HANDLE, HANDLE, PVOID *, ULONG_PTR, SIZE_T, PLARGE_INTEGER, PSIZE_T, int, ULONG, ULONG);

int main(void) {
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    CreateSection create_section = (CreateSection)(void *)GetProcAddress(ntdll, "NtCreateSection");
    MapView map_view = (MapView)(void *)GetProcAddress(ntdll, "NtMapViewOfSection");
    HANDLE file = CreateFileW(L"view-probe.tmp", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                              NULL, CREATE_ALWAYS, FILE_FLAG_DELETE_ON_CLOSE, NULL);
    static char pages[8192];
    DWORD written;
    HANDLE section;
    PVOID address = NULL;
    SIZE_T size = 1 << 20; /* 1 MiB reserved over an 8 KiB file */
    LONG status;
    if (file == INVALID_HANDLE_VALUE || !WriteFile(file, pages, sizeof pages, &written, NULL)) {
        printf("error: scratch file (Win32 error %lu)\n", GetLastError());
        return 1;
    }
    status = create_section(&section, SECTION_MAP_READ | SECTION_EXTEND_SIZE, NULL, NULL, PAGE_READWRITE, SEC_RESERVE, file);
    if (status != 0) {
        printf("error: NtCreateSection 0x%08lx\n", (unsigned long)status);
        return 1;
    }
    status = map_view(section, GetCurrentProcess(), &address, 0, 0, NULL, &size, 2 /* ViewUnmap */, MEM_RESERVE, PAGE_READONLY);
    if (status == 0)
        printf("mapped\n");
    else
        printf("refused: NtMapViewOfSection 0x%08lx\n", (unsigned long)status);
    return 0;
}
