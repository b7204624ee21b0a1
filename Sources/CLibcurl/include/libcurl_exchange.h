// One HTTP request through libcurl, for the sync transport on Linux: FoundationNetworking's
// URLSession is libcurl underneath there, but it offers no way to trust a private certificate
// authority for one session, nor tells a certificate that is not trusted apart from other failures,
// and it copies each answer through buffers of its own. libcurl is loaded
// at run time (the libcurl.so.4 that FoundationNetworking itself links), so that building needs no
// libcurl headers or development package.
#ifndef BOUTIQUE_LIBCURL_EXCHANGE_H
#define BOUTIQUE_LIBCURL_EXCHANGE_H

#include <stddef.h>

/// How an exchange ended.
enum boutique_curl_outcome {
    /// An answer came (whatever its status).
    BOUTIQUE_CURL_ANSWERED = 0,
    /// libcurl could not be loaded, or lacks what is needed.
    BOUTIQUE_CURL_UNAVAILABLE = 1,
    /// The server's certificate is not trusted (not signed by a trusted authority, expired, or not
    /// for the host asked), or the authorities given cannot be read: trying again changes nothing.
    BOUTIQUE_CURL_UNTRUSTED = 2,
    /// The TLS handshake failed otherwise (a server speaking plain HTTP, no common TLS version).
    BOUTIQUE_CURL_HANDSHAKE_FAILED = 3,
    /// `boutique_curl_cancel` was called.
    BOUTIQUE_CURL_CANCELLED = 4,
    /// No answer: no connection, a connection lost, or the time ran out.
    BOUTIQUE_CURL_NO_ANSWER = 5,
    /// The answer was larger than the exchange keeps.
    BOUTIQUE_CURL_TOO_LARGE = 6,
};

/// A request, and what became of it.
struct boutique_curl_exchange {
    /// `GET`, `PUT`, …; NULL for `POST`. A `GET` sends no body.
    const char *method;
    const char *url;
    /// Header lines (`Name: value`), `header_count` of them.
    const char *const *headers;
    size_t header_count;
    const void *body;
    size_t body_length;
    /// PEM certificates of the only authorities to trust; NULL for the system's.
    const void *authorities;
    size_t authorities_length;
    /// How long the connection may be silent (nothing sent or received) before the exchange ends.
    long timeout_milliseconds;
    /// Set (by `boutique_curl_cancel`) to end the exchange.
    int cancelled;
    /// A handle of `boutique_curl_handle_create` to send through, which keeps its connection (and
    /// TLS session) for the next exchange that uses it; NULL for a handle of this exchange alone.
    /// One exchange at a time per handle.
    void *handle;

    /// The answer's status and body (malloc'd; free it with `boutique_curl_free`).
    long status;
    unsigned char *response;
    size_t response_length;
    size_t response_capacity;
    /// Set when the answer ran past the most kept.
    int too_large;
    /// What went wrong, when the outcome is not BOUTIQUE_CURL_ANSWERED.
    char error[512];
};

/// A handle that keeps its connection open between exchanges (see `handle`); NULL when libcurl cannot
/// be loaded or make one. Free it with `boutique_curl_handle_destroy`.
void *boutique_curl_handle_create(void);

/// Closes a handle's connection and frees it.
void boutique_curl_handle_destroy(void *handle);

/// Sends the request and waits for its answer (blocking the calling thread).
enum boutique_curl_outcome boutique_curl_perform(struct boutique_curl_exchange *exchange);

/// Ends an exchange in progress from another thread, within about a second.
void boutique_curl_cancel(struct boutique_curl_exchange *exchange);

/// What went wrong, as text.
const char *boutique_curl_error(const struct boutique_curl_exchange *exchange);

/// Frees the answer's body.
void boutique_curl_free(struct boutique_curl_exchange *exchange);

#endif
