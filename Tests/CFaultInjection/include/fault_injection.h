#ifndef BOUTIQUE_FAULT_INJECTION_H
#define BOUTIQUE_FAULT_INJECTION_H

// A SQLite VFS that wraps the default one and fails chosen I/O calls of the files whose path holds a
// marker, for the fault-injection tests. Files without the marker pass straight through, so tests that
// run at the same time are not disturbed.

/// The kinds of call that can be failed.
typedef enum {
    BOUTIQUE_FAULT_NONE = 0,
    BOUTIQUE_FAULT_READ = 1,      // the n-th xRead fails with SQLITE_IOERR_READ
    BOUTIQUE_FAULT_WRITE = 2,     // the n-th xWrite fails with SQLITE_IOERR_WRITE
    BOUTIQUE_FAULT_TRUNCATE = 3,  // the n-th xTruncate fails with SQLITE_IOERR_TRUNCATE
    BOUTIQUE_FAULT_SYNC = 4,      // the n-th xSync fails with SQLITE_IOERR_FSYNC
    BOUTIQUE_FAULT_LOCK = 5,      // the n-th xLock fails with SQLITE_IOERR_LOCK
    BOUTIQUE_FAULT_SHM = 6,       // the n-th xShmMap or xShmLock taking a lock fails (SQLITE_IOERR_SHMMAP / _SHMLOCK)
    BOUTIQUE_FAULT_FULL = 7,      // every xWrite from the n-th on fails with SQLITE_FULL (a full disk)
    BOUTIQUE_FAULT_TORN = 8,      // the n-th xWrite writes half its bytes, then fails with SQLITE_IOERR_WRITE
    BOUTIQUE_FAULT_KIND_COUNT = 9
} boutique_fault_kind;

/// Registers the VFS as the process's default, wrapping the default one. Idempotent. Returns SQLITE_OK.
int boutique_fault_register(const char *marker);

/// Arms a fault of `kind` at call `n` (1-based, counted from this call), or disarms with NONE.
void boutique_fault_arm(boutique_fault_kind kind, long long n);

/// Removes the armed fault, keeping the counts.
void boutique_fault_disarm(void);

/// While `suspended` is nonzero, calls are neither counted nor failed (the test's own I/O).
void boutique_fault_suspend(int suspended);

/// The calls of `kind` made to marked files since the last arming or reset.
long long boutique_fault_calls(boutique_fault_kind kind);

/// How many faults were injected since the last arming.
long long boutique_fault_injected(void);

#endif
