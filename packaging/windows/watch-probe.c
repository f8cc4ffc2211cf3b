/* Whether this Windows (or Wine) has the records of a directory change readable when the call
 * that made the change returns, as the index's watcher takes them to be (sys/windows/watcher.rs).
 * It works as the index does: a recursive overlapped ReadDirectoryChangesW with the watcher's
 * filter, on a scratch directory, drained by a thread of its own that waits on the read's event
 * (the index's thread) and, before each "search", by the main thread, which takes without
 * waiting every read that has finished, starting each again.
 *
 * Each round makes one change of the kinds the cache's freshness test makes (a file created,
 * rewritten with another size, renamed over by a save, deleted, deleted and made again) on the
 * main thread, then drains at once. A round whose records none of the two threads had taken by
 * then, but that came within the next 200 ms, is "late": a search made at once would not have
 * seen its change.
 *
 * It prints "late K of N rounds" and the rounds by kind. Wine 8.0 builds the watch on inotify in
 * its server process, which reads the kernel's events in its own time and finishes the read
 * through an asynchronous call to the thread that started it: under Wine K is above 0. NTFS
 * records a change during the call that makes it.
 *
 * Then, on a second line, whether a read outlives the thread that started it when its directory
 * is bound to a completion port (and its event's low bit asks for no packet there), as the
 * watcher's are: a thread starts a read and ends, a file is made, and the read is looked at.
 * Windows keeps such a read running ("thread ended: kept", its records delivered); Wine 8.0
 * cancels it with the thread ("thread ended: aborted (995)"), which the watcher takes as a
 * rescan of the root.
 *
 * packaging/windows/test.sh skips the tests that meet either only when this shows it. Exit
 * status 0 either way; it makes a scratch directory in the current directory. */
#include <windows.h>
#include <stdio.h>

#define ROUNDS 100
#define KINDS 5

static const char *const kinds[KINDS] = {"created", "rewritten", "renamed over", "deleted", "deleted and made again"};

static HANDLE dir;
static OVERLAPPED overlapped;
static DWORD records[16384];
/* The records taken so far, by either thread, under `lock`. */
static CRITICAL_SECTION lock;
static volatile LONG taken;

/* Writes `text` to `name`, replacing what it held (as Rust's std::fs::write does). */
static void put(const WCHAR *name, const char *text) {
    HANDLE file = CreateFileW(name, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
    DWORD written;
    WriteFile(file, text, (DWORD)strlen(text), &written, NULL);
    CloseHandle(file);
}

static void start(void) {
    DWORD filter = FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_DIR_NAME | FILE_NOTIFY_CHANGE_SIZE |
                   FILE_NOTIFY_CHANGE_LAST_WRITE | FILE_NOTIFY_CHANGE_ATTRIBUTES | FILE_NOTIFY_CHANGE_SECURITY;
    ResetEvent(overlapped.hEvent);
    if (!ReadDirectoryChangesW(dir, records, sizeof records, TRUE, filter, NULL, &overlapped, NULL)) {
        printf("error: ReadDirectoryChangesW (Win32 error %lu)\n", GetLastError());
        ExitProcess(1);
    }
}

/* Takes every read that has finished, without waiting, starting each again (the watcher's
 * drain), counting their records in `taken`; the caller holds `lock`. */
static void drain(void) {
    DWORD bytes;
    while (GetOverlappedResult(dir, &overlapped, &bytes, FALSE)) {
        FILE_NOTIFY_INFORMATION *record = (FILE_NOTIFY_INFORMATION *)records;
        while (bytes) {
            taken++;
            if (!record->NextEntryOffset)
                break;
            record = (FILE_NOTIFY_INFORMATION *)((char *)record + record->NextEntryOffset);
        }
        start();
    }
}

/* The index's thread: drains whenever a read has finished. */
static DWORD WINAPI waiter(void *unused) {
    (void)unused;
    for (;;) {
        WaitForSingleObject(overlapped.hEvent, INFINITE);
        EnterCriticalSection(&lock);
        drain();
        LeaveCriticalSection(&lock);
    }
    return 0;
}

/* The second part's read: its own directory handle, OVERLAPPED and buffer. */
static HANDLE second_dir;
static OVERLAPPED second;
static DWORD second_records[4096];

/* Starts the second part's read from a thread of its own, which then ends. */
static DWORD WINAPI start_and_end(void *unused) {
    (void)unused;
    if (!ReadDirectoryChangesW(second_dir, second_records, sizeof second_records, TRUE, FILE_NOTIFY_CHANGE_FILE_NAME, NULL,
                               &second, NULL))
        printf("error: ReadDirectoryChangesW (Win32 error %lu)\n", GetLastError());
    return 0;
}

/* Whether a read bound to a completion port outlives the thread that started it (the second
 * line). */
static void outlive(void) {
    HANDLE port, thread;
    DWORD bytes;
    second_dir = CreateFileW(L"watch-probe.dir", FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                             NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OVERLAPPED, NULL);
    port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
    if (second_dir == INVALID_HANDLE_VALUE || !port || !CreateIoCompletionPort(second_dir, port, 0, 0)) {
        printf("error: the port (Win32 error %lu)\n", GetLastError());
        return;
    }
    /* The low bit: no packet is queued to the port (as the watcher's reads). */
    second.hEvent = (HANDLE)((ULONG_PTR)CreateEventW(NULL, TRUE, FALSE, NULL) | 1);
    thread = CreateThread(NULL, 0, start_and_end, NULL, 0, NULL);
    WaitForSingleObject(thread, INFINITE);
    CloseHandle(thread);
    put(L"watch-probe.dir\\g.txt", "made after the thread ended\n");
    Sleep(200);
    if (GetOverlappedResult(second_dir, &second, &bytes, FALSE))
        printf("thread ended: kept (%lu bytes of records)\n", bytes);
    else if (GetLastError() == ERROR_IO_INCOMPLETE)
        printf("thread ended: kept, but no record 200 ms after the change\n");
    else
        printf("thread ended: aborted (%lu)\n", GetLastError());
    DeleteFileW(L"watch-probe.dir\\g.txt");
}

/* The records taken so far, after draining what has finished. */
static LONG drained(void) {
    LONG now;
    EnterCriticalSection(&lock);
    drain();
    now = taken;
    LeaveCriticalSection(&lock);
    return now;
}

int main(void) {
    int late = 0, round, late_by_kind[KINDS] = {0}, kind;
    CreateDirectoryW(L"watch-probe.dir", NULL);
    dir = CreateFileW(L"watch-probe.dir", FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                      OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OVERLAPPED, NULL);
    overlapped.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (dir == INVALID_HANDLE_VALUE || !overlapped.hEvent) {
        printf("error: the scratch directory (Win32 error %lu)\n", GetLastError());
        return 1;
    }
    InitializeCriticalSection(&lock);
    start();
    CreateThread(NULL, 0, waiter, NULL, 0, NULL);
    for (round = 0; round < ROUNDS; round++) {
        /* What the last round left, and the set-up of this one's change, are taken first. */
        LONG before;
        switch (round % KINDS) {
        case 0: DeleteFileW(L"watch-probe.dir\\f.txt"); break;
        case 2: put(L"watch-probe.dir\\save.tmp", "version three, saved\n"); break;
        case 4: put(L"watch-probe.dir\\f.txt", "version four\n"); break;
        }
        Sleep(200);
        before = drained();
        switch (round % KINDS) {
        case 0: put(L"watch-probe.dir\\f.txt", "version one\n"); break;
        case 1: put(L"watch-probe.dir\\f.txt", "version two, longer\n"); break;
        case 2: MoveFileExW(L"watch-probe.dir\\save.tmp", L"watch-probe.dir\\f.txt", MOVEFILE_REPLACE_EXISTING); break;
        case 3: DeleteFileW(L"watch-probe.dir\\f.txt"); break;
        default:
            DeleteFileW(L"watch-probe.dir\\f.txt");
            put(L"watch-probe.dir\\f.txt", "version five\n");
            break;
        }
        if (drained() == before) {
            Sleep(200);
            if (drained() == before)
                continue;
            late++;
            late_by_kind[round % KINDS]++;
        }
    }
    printf("late %d of %d rounds (", late, ROUNDS);
    for (kind = 0; kind < KINDS; kind++)
        printf("%s%s %d", kind ? ", " : "", kinds[kind], late_by_kind[kind]);
    printf(")\n");
    /* The waiter keeps the first handle's read: the second part opens the directory again. */
    EnterCriticalSection(&lock);
    outlive();
    DeleteFileW(L"watch-probe.dir\\f.txt");
    DeleteFileW(L"watch-probe.dir\\save.tmp");
    RemoveDirectoryW(L"watch-probe.dir");
    /* The waiter still waits: the process ends here, with its read. */
    ExitProcess(0);
}
