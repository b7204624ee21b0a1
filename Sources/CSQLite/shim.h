#ifndef BOUTIQUE_CSQLITE_SHIM_H
#define BOUTIQUE_CSQLITE_SHIM_H

// The preupdate hook is declared only when this is defined; Debian's library is built with it.
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are function-pointer casts that Swift cannot import as constants.
static inline sqlite3_destructor_type boutique_sqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type boutique_sqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_db_config is variadic, which Swift cannot call: one of its integer options, set and read back.
static inline int boutique_sqlite_db_config_int(sqlite3 *db, int option, int value, int *current) {
    return sqlite3_db_config(db, option, value, current);
}

#endif
