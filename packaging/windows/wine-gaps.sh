# The core's Rust tests that fail under Wine 8.0 for Wine's own reason (sourced by
# packaging/windows/test.sh): test name -> the Wine behaviour that makes it fail. test.sh skips
# them by name (cargo test -- --skip NAME) and counts them as skipped, never as passed; a
# Windows runner (.github/workflows/test.yml) runs them all.
# shellcheck shell=bash

# The tests that open the frecency store. LMDB maps its whole map size as a reserved view over a
# file that grows later; Wine 8.0's NtMapViewOfSection refuses a view larger than a file-backed
# section (STATUS_INVALID_VIEW_SIZE, which LMDB reports as Win32 error 5, "Access denied"), so
# the store never opens. test.sh skips them only when packaging/windows/view-probe.c, run under
# the same Wine, shows that refusal.
LMDB_VIEW_GAP="LMDB's reserved view is larger than its file, which Wine 8.0 refuses (STATUS_INVALID_VIEW_SIZE, read as 'Access denied'): view-probe.c"
LMDB_TESTS=(
    a_store_from_a_future_version_is_refused_with_a_clear_message
    a_writer_killed_mid_commit_leaves_a_store_that_opens_consistent
    four_processes_recording_at_once_lose_no_access
    a_frecency_database_from_the_environment
    batch_scores_see_writes_made_after_they_were_cached
    grep_and_glob_in_frecency_order
    one_directory_is_one_database_per_process_with_one_profile
    profiles_and_diminishing_returns
    purging_deletes_what_expired_and_persists_across_reopening
    recorded_hits_and_pages_in_frecency_order
    sandbox_options_open_the_database_and_watch_the_thesaurus
    the_formula_matches_hand_computed_values
    the_sandbox_records_and_scores_only_what_lies_inside
    two_processes_write_one_database
)

# The tests that change a file and search at once, asserting the answer holds the change. The
# watcher takes, before a search, the ReadDirectoryChangesW reads that have finished; under Wine
# 8.0 a change's record often finishes its read only after the call that made the change has
# returned (Wine's server reads inotify in its own time, then completes the read through an
# asynchronous call to the thread that started it), so the search answers without it.
# test.sh skips them only when packaging/windows/watch-probe.c, run under the same Wine, counts
# late records.
LATE_RECORD_GAP="a change's ReadDirectoryChangesW record finishes its read after the call that made the change returned, which Wine 8.0's server does (inotify read in its own time): watch-probe.c"
LATE_RECORD_TESTS=(
    a_changed_deleted_or_replaced_file_is_never_served_from_the_cache
)

# The tests that restart an index from its store and count what it read again. The store's
# check starts the root's watch on a thread that then ends; the watcher binds the directory to a
# completion port, so that on Windows the read outlives its thread. Wine 8.0 cancels it all the
# same (ERROR_OPERATION_ABORTED), which the watcher takes as a rescan of the root: answers stay
# right, but every file is read again, which these tests count. test.sh skips them only when
# packaging/windows/watch-probe.c, run under the same Wine, prints "thread ended: aborted".
THREAD_EXIT_GAP="a read bound to a completion port is cancelled when the thread that started it ends, which Wine 8.0 does and Windows does not (the watcher then rescans the root): watch-probe.c"
THREAD_EXIT_TESTS=(
    a_write_that_fails_keeps_the_old_store_and_says_why
    a_file_unchanged_since_it_was_read_is_not_read_again
)

# The test whose writers replace the index's store while readers have it open. std::fs::rename
# tries MoveFileExW, then FileRenameInfoEx with POSIX semantics (which Windows 10 1709+ gives on
# NTFS: the reader keeps the old file), then FileRenameInfo; Wine 8.0 has no
# FileRenameInformationEx and refuses to replace a file any handle holds open, whatever it
# shares, so the writer's rename fails with "Access denied". test.sh skips it only when
# packaging/windows/rename-probe.c, run under the same Wine, is refused both ways.
OPEN_REPLACE_GAP="a rename over a file a reader holds open: Wine 8.0 has no FileRenameInformationEx (POSIX semantics) and refuses the plain replace of an open file ('Access denied'): rename-probe.c"
OPEN_REPLACE_TESTS=(
    writers_take_turns_and_readers_never_see_half_a_store
)
