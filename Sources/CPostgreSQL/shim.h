#ifndef BOUTIQUE_CPOSTGRESQL_SHIM_H
#define BOUTIQUE_CPOSTGRESQL_SHIM_H

// libpq, PostgreSQL's client library: Debian's `libpq-dev` puts the header in /usr/include/postgresql,
// which pkg-config's `libpq` adds to the search path.
#include <libpq-fe.h>

#endif
