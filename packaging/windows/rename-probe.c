/* Whether this Windows (or Wine) replaces a file that a reader holds open, as the index's store
 * writer does (std::fs::rename of the temporary store over the store while another process
 * reads it). The reader opens the store as std's File::open does: read access, sharing read,
 * write and delete. Then the rename is tried each way std::fs::rename tries it, in its order:
 *   movefile  MoveFileExW(MOVEFILE_REPLACE_EXISTING);
 *   posix     when that is refused with "Access denied": SetFileInformationByHandle
 *             (FileRenameInfoEx) with FILE_RENAME_FLAG_POSIX_SEMANTICS and REPLACE_IF_EXISTS
 *             (NTFS, Windows 10 1709 and later: the open name is unlinked at once and its
 *             reader goes on reading the old file, as on Unix);
 *   classic   when that is not supported (ERROR_INVALID_PARAMETER): FileRenameInfo with
 *             ReplaceIfExists;
 *   closed    MoveFileExW again once the reader has closed its handle.
 * Wine 8.0 prints "movefile: refused (5)", "posix: refused (87)" (it has no
 * FileRenameInformationEx) and "classic: refused (5)" (its server refuses to replace a file
 * that any handle holds open, whatever that handle shares), then "closed: replaced".
 * packaging/windows/test.sh skips the test that meets it only when this prints "posix: refused"
 * and "classic: refused". Exit status 0 either way; it writes scratch files in the current
 * directory. */
#include <windows.h>
#include <stdio.h>
#include <stddef.h>

/* FILE_RENAME_INFO with the Flags member of FileRenameInfoEx (not in every MinGW header). */
typedef struct {
    union {
        BOOLEAN ReplaceIfExists;
        DWORD Flags;
    };
    HANDLE RootDirectory;
    DWORD FileNameLength;
    WCHAR FileName[64];
} Rename;

enum { RENAME_INFO = 3, RENAME_INFO_EX = 22, REPLACE_IF_EXISTS = 1, POSIX_SEMANTICS = 2 };

static void scratch(const WCHAR *name, const char *text) {
    HANDLE file = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
    DWORD written;
    WriteFile(file, text, (DWORD)strlen(text), &written, NULL);
    CloseHandle(file);
}

/* Makes rename-probe.tmp and renames it over rename-probe.store: with MoveFileExW when `class`
 * is 0, else SetFileInformationByHandle of that class and `flags`; prints the outcome after
 * `label`. */
static void attempt(const char *label, int class, DWORD flags) {
    static const WCHAR source[] = L"rename-probe.tmp", target[] = L"rename-probe.store";
    Rename info = {0};
    BOOL done;
    scratch(source, "new store\n");
    if (class == 0) {
        done = MoveFileExW(source, target, MOVEFILE_REPLACE_EXISTING);
    } else {
        HANDLE file = CreateFileW(source, DELETE | SYNCHRONIZE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                  NULL, OPEN_EXISTING, 0, NULL);
        if (class == RENAME_INFO_EX)
            info.Flags = flags;
        else
            info.ReplaceIfExists = TRUE;
        info.FileNameLength = sizeof target - sizeof(WCHAR);
        memcpy(info.FileName, target, sizeof target);
        done = SetFileInformationByHandle(file, class, &info, sizeof info);
        if (!done) {
            DWORD error = GetLastError();
            CloseHandle(file);
            SetLastError(error);
        } else {
            CloseHandle(file);
        }
    }
    if (done)
        printf("%s: replaced\n", label);
    else
        printf("%s: refused (%lu)\n", label, GetLastError());
}

int main(void) {
    HANDLE reader;
    scratch(L"rename-probe.store", "old store\n");
    reader = CreateFileW(L"rename-probe.store", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                         OPEN_EXISTING, 0, NULL);
    if (reader == INVALID_HANDLE_VALUE) {
        printf("error: the reader (Win32 error %lu)\n", GetLastError());
        return 1;
    }
    attempt("movefile", 0, 0);
    attempt("posix", RENAME_INFO_EX, REPLACE_IF_EXISTS | POSIX_SEMANTICS);
    attempt("classic", RENAME_INFO, 0);
    CloseHandle(reader);
    attempt("closed", 0, 0);
    DeleteFileW(L"rename-probe.tmp");
    DeleteFileW(L"rename-probe.store");
    return 0;
}
