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
