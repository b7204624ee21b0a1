#include "fault_injection.h"

#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>

// The wrapped file: our header, then the real file of the default VFS.
typedef struct {
    sqlite3_file base;
    int marked;
    sqlite3_file *real;
} fault_file;

static sqlite3_vfs *original = NULL;
static sqlite3_vfs fault_vfs;
static char marker[256];
static _Atomic int armed_kind = BOUTIQUE_FAULT_NONE;
static _Atomic long long armed_at = 0;
static _Atomic long long calls[BOUTIQUE_FAULT_KIND_COUNT];
static _Atomic long long injected = 0;
static _Atomic int suspended_flag = 0;

// Counts a call of `kind` to a marked file; true when this call is to fail.
static int should_fail(const fault_file *file, boutique_fault_kind kind) {
    if (!file->marked || atomic_load(&suspended_flag)) return 0;
    long long number = atomic_fetch_add(&calls[kind], 1) + 1;
    int armed = atomic_load(&armed_kind);
    long long at = atomic_load(&armed_at);
    if (armed == kind && number == at) {
        atomic_fetch_add(&injected, 1);
        return 1;
    }
    return 0;
}

// Writes count for three kinds: plain failures, the full disk from the n-th on, and torn writes.
static int write_fault(const fault_file *file) {
    if (!file->marked || atomic_load(&suspended_flag)) return BOUTIQUE_FAULT_NONE;
    long long number = atomic_fetch_add(&calls[BOUTIQUE_FAULT_WRITE], 1) + 1;
    int armed = atomic_load(&armed_kind);
    long long at = atomic_load(&armed_at);
    if ((armed == BOUTIQUE_FAULT_WRITE || armed == BOUTIQUE_FAULT_TORN) && number == at) {
        atomic_fetch_add(&injected, 1);
        return armed;
    }
    if (armed == BOUTIQUE_FAULT_FULL && number >= at) {
        atomic_fetch_add(&injected, 1);
        return armed;
    }
    return BOUTIQUE_FAULT_NONE;
}

static int f_close(sqlite3_file *f) {
    fault_file *file = (fault_file *)f;
    int rc = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    sqlite3_free(file->real);
    return rc;
}

static int f_read(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    fault_file *file = (fault_file *)f;
    if (should_fail(file, BOUTIQUE_FAULT_READ)) return SQLITE_IOERR_READ;
    return file->real->pMethods->xRead(file->real, buffer, amount, offset);
}

static int f_write(sqlite3_file *f, const void *buffer, int amount, sqlite3_int64 offset) {
    fault_file *file = (fault_file *)f;
    switch (write_fault(file)) {
    case BOUTIQUE_FAULT_WRITE: return SQLITE_IOERR_WRITE;
    case BOUTIQUE_FAULT_FULL: return SQLITE_FULL;
    case BOUTIQUE_FAULT_TORN:
        file->real->pMethods->xWrite(file->real, buffer, amount / 2, offset);
        return SQLITE_IOERR_WRITE;
    default: return file->real->pMethods->xWrite(file->real, buffer, amount, offset);
    }
}

static int f_truncate(sqlite3_file *f, sqlite3_int64 size) {
    fault_file *file = (fault_file *)f;
    if (should_fail(file, BOUTIQUE_FAULT_TRUNCATE)) return SQLITE_IOERR_TRUNCATE;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int f_sync(sqlite3_file *f, int flags) {
    fault_file *file = (fault_file *)f;
    if (should_fail(file, BOUTIQUE_FAULT_SYNC)) return SQLITE_IOERR_FSYNC;
    return file->real->pMethods->xSync(file->real, flags);
}

static int f_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int f_lock(sqlite3_file *f, int level) {
    fault_file *file = (fault_file *)f;
    if (should_fail(file, BOUTIQUE_FAULT_LOCK)) return SQLITE_IOERR_LOCK;
    return file->real->pMethods->xLock(file->real, level);
}

static int f_unlock(sqlite3_file *f, int level) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int f_check_reserved(sqlite3_file *f, int *out) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int f_file_control(sqlite3_file *f, int op, void *arg) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xFileControl(file->real, op, arg);
}

static int f_sector_size(sqlite3_file *f) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xSectorSize(file->real);
}

static int f_device_characteristics(sqlite3_file *f) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

static int f_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    fault_file *file = (fault_file *)f;
    if (should_fail(file, BOUTIQUE_FAULT_SHM)) return SQLITE_IOERR_SHMMAP;
    return file->real->pMethods->xShmMap(file->real, page, size, extend, out);
}

static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
    fault_file *file = (fault_file *)f;
    // Taking a lock can fail; letting one go cannot (the lock would stay held for ever).
    if ((flags & SQLITE_SHM_LOCK) && should_fail(file, BOUTIQUE_FAULT_SHM)) return SQLITE_IOERR_SHMLOCK;
    return file->real->pMethods->xShmLock(file->real, offset, n, flags);
}

static void f_shm_barrier(sqlite3_file *f) {
    fault_file *file = (fault_file *)f;
    file->real->pMethods->xShmBarrier(file->real);
}

static int f_shm_unmap(sqlite3_file *f, int delete_flag) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xShmUnmap(file->real, delete_flag);
}

static int f_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xFetch(file->real, offset, amount, out);
}

static int f_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    fault_file *file = (fault_file *)f;
    return file->real->pMethods->xUnfetch(file->real, offset, page);
}

static const sqlite3_io_methods fault_methods = {
    3, f_close, f_read, f_write, f_truncate, f_sync, f_file_size, f_lock, f_unlock, f_check_reserved,
    f_file_control, f_sector_size, f_device_characteristics, f_shm_map, f_shm_lock, f_shm_barrier, f_shm_unmap,
    f_fetch, f_unfetch,
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags) {
    (void)vfs;
    fault_file *file = (fault_file *)f;
    file->base.pMethods = NULL;
    file->real = (sqlite3_file *)sqlite3_malloc(original->szOsFile);
    if (!file->real) return SQLITE_NOMEM;
    memset(file->real, 0, original->szOsFile);
    file->marked = name != NULL && marker[0] != 0 && strstr(name, marker) != NULL;
    int rc = original->xOpen(original, name, file->real, flags, out_flags);
    if (rc != SQLITE_OK || file->real->pMethods == NULL) {
        sqlite3_free(file->real);
        file->real = NULL;
        return rc;
    }
    file->base.pMethods = &fault_methods;
    return SQLITE_OK;
}

static int v_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    (void)vfs;
    return original->xDelete(original, name, sync_dir);
}

static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    (void)vfs;
    return original->xAccess(original, name, flags, out);
}

static int v_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    (void)vfs;
    return original->xFullPathname(original, name, size, out);
}

static void *v_dl_open(sqlite3_vfs *vfs, const char *name) { (void)vfs; return original->xDlOpen(original, name); }
static void v_dl_error(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; original->xDlError(original, size, out); }
static void (*v_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    (void)vfs;
    return original->xDlSym(original, handle, symbol);
}
static void v_dl_close(sqlite3_vfs *vfs, void *handle) { (void)vfs; original->xDlClose(original, handle); }
static int v_randomness(sqlite3_vfs *vfs, int size, char *out) { (void)vfs; return original->xRandomness(original, size, out); }
static int v_sleep(sqlite3_vfs *vfs, int micro) { (void)vfs; return original->xSleep(original, micro); }
static int v_current_time(sqlite3_vfs *vfs, double *out) { (void)vfs; return original->xCurrentTime(original, out); }
static int v_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    (void)vfs;
    return original->xGetLastError ? original->xGetLastError(original, size, out) : 0;
}
static int v_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    (void)vfs;
    return original->xCurrentTimeInt64(original, out);
}

int boutique_fault_register(const char *name_marker) {
    if (original != NULL) return SQLITE_OK;
    sqlite3_initialize();
    original = sqlite3_vfs_find(NULL);
    if (original == NULL) return SQLITE_ERROR;
    strncpy(marker, name_marker, sizeof(marker) - 1);
    fault_vfs = (sqlite3_vfs){
        .iVersion = 2, .szOsFile = (int)sizeof(fault_file), .mxPathname = original->mxPathname, .pNext = NULL,
        .zName = "boutique-fault", .pAppData = NULL, .xOpen = v_open, .xDelete = v_delete, .xAccess = v_access,
        .xFullPathname = v_full_pathname, .xDlOpen = v_dl_open, .xDlError = v_dl_error, .xDlSym = v_dl_sym,
        .xDlClose = v_dl_close, .xRandomness = v_randomness, .xSleep = v_sleep, .xCurrentTime = v_current_time,
        .xGetLastError = v_get_last_error, .xCurrentTimeInt64 = v_current_time_int64,
    };
    return sqlite3_vfs_register(&fault_vfs, 1);
}

void boutique_fault_disarm(void) { atomic_store(&armed_kind, BOUTIQUE_FAULT_NONE); }

void boutique_fault_arm(boutique_fault_kind kind, long long n) {
    atomic_store(&armed_kind, BOUTIQUE_FAULT_NONE);
    for (int index = 0; index < BOUTIQUE_FAULT_KIND_COUNT; index++) atomic_store(&calls[index], 0);
    atomic_store(&injected, 0);
    atomic_store(&armed_at, n);
    atomic_store(&armed_kind, kind);
}

long long boutique_fault_calls(boutique_fault_kind kind) {
    if (kind < 0 || kind >= BOUTIQUE_FAULT_KIND_COUNT) return 0;
    if (kind == BOUTIQUE_FAULT_FULL || kind == BOUTIQUE_FAULT_TORN) return atomic_load(&calls[BOUTIQUE_FAULT_WRITE]);
    return atomic_load(&calls[kind]);
}

void boutique_fault_suspend(int suspended) { atomic_store(&suspended_flag, suspended); }

long long boutique_fault_injected(void) { return atomic_load(&injected); }
