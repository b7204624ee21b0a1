#include "libcurl_exchange.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

// The few parts of libcurl's ABI used here, which its soname (libcurl.so.4) keeps stable: option and
// info numbers are fixed by its public header (`CURLOPTTYPE_* + n`), never renumbered.
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_ERRORBUFFER = 10010, OPT_POSTFIELDS = 10015,
    OPT_HTTPHEADER = 10023, OPT_WRITEFUNCTION = 20011, OPT_SSLVERSION = 32, OPT_NOPROGRESS = 43,
    OPT_XFERINFODATA = 10057, OPT_CAPATH = 10097, OPT_NOSIGNAL = 99, OPT_CONNECTTIMEOUT_MS = 156, OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20,
    OPT_POSTFIELDSIZE_LARGE = 30120, OPT_XFERINFOFUNCTION = 20219, OPT_CAINFO_BLOB = 40309,
    OPT_PROTOCOLS_STR = 10318, OPT_PROTOCOLS = 181, OPT_CUSTOMREQUEST = 10036, OPT_HTTPGET = 80,
};
enum { PROTOCOL_HTTP = 1, PROTOCOL_HTTPS = 2 };
enum { INFO_RESPONSE_CODE = 0x200000 + 2 };
enum { SSLVERSION_TLSv1_2 = 6, GLOBAL_ALL = 3, BLOB_COPY = 1 };
enum {
    E_OK = 0, E_SSL_CONNECT_ERROR = 35, E_ABORTED_BY_CALLBACK = 42, E_WRITE_ERROR = 23, E_UNKNOWN_OPTION = 48, E_SSL_CERTPROBLEM = 58,
    E_PEER_FAILED_VERIFICATION = 60, E_SSL_CACERT_BADFILE = 77, E_SSL_ISSUER_ERROR = 83, E_SSL_PINNEDPUBKEYNOTMATCH = 90,
    E_SSL_INVALIDCERTSTATUS = 91,
};

struct blob { void *data; size_t length; unsigned int flags; };
struct slist;

static struct {
    void *(*easy_init)(void);
    int (*easy_setopt)(void *, int, ...);
    int (*easy_perform)(void *);
    int (*easy_getinfo)(void *, int, ...);
    void (*easy_cleanup)(void *);
    void (*easy_reset)(void *);
    const char *(*easy_strerror)(int);
    struct slist *(*slist_append)(struct slist *, const char *);
    void (*slist_free_all)(struct slist *);
    int (*global_init)(long);
    int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    *(void **)&curl.easy_init = dlsym(library, "curl_easy_init");
    *(void **)&curl.easy_setopt = dlsym(library, "curl_easy_setopt");
    *(void **)&curl.easy_perform = dlsym(library, "curl_easy_perform");
    *(void **)&curl.easy_getinfo = dlsym(library, "curl_easy_getinfo");
    *(void **)&curl.easy_cleanup = dlsym(library, "curl_easy_cleanup");
    *(void **)&curl.easy_reset = dlsym(library, "curl_easy_reset");
    *(void **)&curl.easy_strerror = dlsym(library, "curl_easy_strerror");
    *(void **)&curl.slist_append = dlsym(library, "curl_slist_append");
    *(void **)&curl.slist_free_all = dlsym(library, "curl_slist_free_all");
    *(void **)&curl.global_init = dlsym(library, "curl_global_init");
    if (!curl.easy_init || !curl.easy_setopt || !curl.easy_perform || !curl.easy_getinfo || !curl.easy_cleanup || !curl.easy_reset
        || !curl.easy_strerror || !curl.slist_append || !curl.slist_free_all || !curl.global_init)
        return;
    // Once, before any handle, as libcurl asks (FoundationNetworking may have done it too: harmless).
    if (curl.global_init(GLOBAL_ALL) != E_OK) return;
    curl.loaded = 1;
}

/// The largest answer kept: a page of changes is at most a few megabytes, so a server cannot make a
/// device hold more than this of one answer.
static const size_t maximum_response = (size_t)64 << 20;

static size_t receive(char *data, size_t size, size_t count, void *context)
{
    struct boutique_curl_exchange *exchange = context;
    size_t length = size * count;
    if (length > maximum_response - exchange->response_length) {
        exchange->too_large = 1;
        return 0; // ends the transfer: E_WRITE_ERROR
    }
    if (exchange->response_length + length > exchange->response_capacity) {
        size_t capacity = exchange->response_capacity < 16384 ? 16384 : exchange->response_capacity;
        while (capacity < exchange->response_length + length) capacity *= 2;
        unsigned char *grown = realloc(exchange->response, capacity);
        if (grown == NULL) return 0;
        exchange->response = grown;
        exchange->response_capacity = capacity;
    }
    memcpy(exchange->response + exchange->response_length, data, length);
    exchange->response_length += length;
    return length;
}

/// Called by libcurl at least once a second while a transfer runs: non-zero ends it.
static int progress(void *context, int64_t download_total, int64_t downloaded, int64_t upload_total, int64_t uploaded)
{
    (void)download_total; (void)downloaded; (void)upload_total; (void)uploaded;
    struct boutique_curl_exchange *exchange = context;
    return __atomic_load_n(&exchange->cancelled, __ATOMIC_ACQUIRE);
}

static void describe(struct boutique_curl_exchange *exchange, const char *detail, int code)
{
    const char *text = detail[0] != 0 ? detail : curl.easy_strerror(code);
    snprintf(exchange->error, sizeof exchange->error, "%s", text);
}

void *boutique_curl_handle_create(void)
{
    pthread_once(&load_once, load);
    return curl.loaded ? curl.easy_init() : NULL;
}

void boutique_curl_handle_destroy(void *handle)
{
    if (handle != NULL && curl.loaded) curl.easy_cleanup(handle);
}

/// Ends an exchange's use of its handle: a handle of the exchange alone is freed; a kept one forgets
/// every option (they point into this exchange's memory, and the next exchange sets its own: the
/// authorities to trust included), and keeps its open connection and TLS session.
static void let_go(struct boutique_curl_exchange *exchange, void *handle)
{
    if (handle == exchange->handle) curl.easy_reset(handle);
    else curl.easy_cleanup(handle);
}

enum boutique_curl_outcome boutique_curl_perform(struct boutique_curl_exchange *exchange)
{
    pthread_once(&load_once, load);
    exchange->status = 0;
    exchange->too_large = 0;
    exchange->error[0] = 0;
    if (!curl.loaded) {
        snprintf(exchange->error, sizeof exchange->error, "libcurl (libcurl.so.4) cannot be loaded");
        return BOUTIQUE_CURL_UNAVAILABLE;
    }
    void *handle = exchange->handle != NULL ? exchange->handle : curl.easy_init();
    if (handle == NULL) {
        snprintf(exchange->error, sizeof exchange->error, "libcurl cannot make a handle");
        return BOUTIQUE_CURL_UNAVAILABLE;
    }
    char detail[256] = {0};
    struct slist *headers = NULL;
    for (size_t index = 0; index < exchange->header_count; index += 1) headers = curl.slist_append(headers, exchange->headers[index]);
    // libcurl would otherwise ask a large body's permission first, and wait a second for it.
    headers = curl.slist_append(headers, "Expect:");
    int code = E_OK;
#define SET(option, value) if (code == E_OK) code = curl.easy_setopt(handle, option, value)
    SET(OPT_ERRORBUFFER, detail);
    SET(OPT_URL, exchange->url);
    SET(OPT_PROTOCOLS_STR, "http,https");
    // libcurl before 7.85 knows the older, numeric form only.
    if (code == E_UNKNOWN_OPTION) code = curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTOCOL_HTTP | PROTOCOL_HTTPS));
    SET(OPT_NOSIGNAL, 1L);
    SET(OPT_HTTPHEADER, headers);
    // A GET sends no body; any other method sends this one (a custom method for all but POST).
    if (exchange->method != NULL && strcmp(exchange->method, "GET") == 0) {
        SET(OPT_HTTPGET, 1L);
    } else {
        SET(OPT_POSTFIELDSIZE_LARGE, (int64_t)exchange->body_length);
        SET(OPT_POSTFIELDS, exchange->body);
        if (exchange->method != NULL && strcmp(exchange->method, "POST") != 0) SET(OPT_CUSTOMREQUEST, exchange->method);
    }
    SET(OPT_WRITEFUNCTION, receive);
    SET(OPT_WRITEDATA, exchange);
    SET(OPT_NOPROGRESS, 0L);
    SET(OPT_XFERINFOFUNCTION, progress);
    SET(OPT_XFERINFODATA, exchange);
    // As URLSession's timeout: how long the connection may stay silent, not how long the whole
    // exchange may take (a large page on a slow network takes longer, and is not cut off).
    long seconds = exchange->timeout_milliseconds / 1000 > 0 ? exchange->timeout_milliseconds / 1000 : 1;
    SET(OPT_CONNECTTIMEOUT_MS, exchange->timeout_milliseconds);
    SET(OPT_LOW_SPEED_LIMIT, 1L);
    SET(OPT_LOW_SPEED_TIME, seconds);
    SET(OPT_SSLVERSION, (long)SSLVERSION_TLSv1_2);
    // Peer and host verification stay libcurl's defaults: on. Given authorities replace the system's,
    // its directory of them included.
    if (exchange->authorities != NULL) {
        struct blob authorities = { (void *)exchange->authorities, exchange->authorities_length, BLOB_COPY };
        SET(OPT_CAINFO_BLOB, &authorities);
        SET(OPT_CAPATH, (char *)NULL);
    }
#undef SET
    if (code != E_OK) {
        snprintf(exchange->error, sizeof exchange->error, "libcurl refused an option: %s", curl.easy_strerror(code));
        let_go(exchange, handle);
        curl.slist_free_all(headers);
        return BOUTIQUE_CURL_UNAVAILABLE;
    }
    code = curl.easy_perform(handle);
    enum boutique_curl_outcome outcome;
    switch (code) {
    case E_OK:
        curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &exchange->status);
        outcome = BOUTIQUE_CURL_ANSWERED;
        break;
    case E_PEER_FAILED_VERIFICATION: case E_SSL_CACERT_BADFILE: case E_SSL_ISSUER_ERROR: case E_SSL_PINNEDPUBKEYNOTMATCH:
    case E_SSL_INVALIDCERTSTATUS: case E_SSL_CERTPROBLEM:
        outcome = BOUTIQUE_CURL_UNTRUSTED;
        break;
    case E_SSL_CONNECT_ERROR:
        outcome = BOUTIQUE_CURL_HANDSHAKE_FAILED;
        break;
    case E_ABORTED_BY_CALLBACK:
        outcome = BOUTIQUE_CURL_CANCELLED;
        break;
    case E_WRITE_ERROR:
        outcome = exchange->too_large ? BOUTIQUE_CURL_TOO_LARGE : BOUTIQUE_CURL_NO_ANSWER;
        break;
    default:
        outcome = BOUTIQUE_CURL_NO_ANSWER;
    }
    if (outcome != BOUTIQUE_CURL_ANSWERED) describe(exchange, detail, code);
    let_go(exchange, handle);
    curl.slist_free_all(headers);
    return outcome;
}

#else

void *boutique_curl_handle_create(void) { return NULL; }

void boutique_curl_handle_destroy(void *handle) { (void)handle; }

enum boutique_curl_outcome boutique_curl_perform(struct boutique_curl_exchange *exchange)
{
    snprintf(exchange->error, sizeof exchange->error, "libcurl is used on Linux only");
    return BOUTIQUE_CURL_UNAVAILABLE;
}

#endif

void boutique_curl_cancel(struct boutique_curl_exchange *exchange)
{
    __atomic_store_n(&exchange->cancelled, 1, __ATOMIC_RELEASE);
}

const char *boutique_curl_error(const struct boutique_curl_exchange *exchange) { return exchange->error; }

void boutique_curl_free(struct boutique_curl_exchange *exchange)
{
    free(exchange->response);
    exchange->response = NULL;
    exchange->response_length = 0;
    exchange->response_capacity = 0;
}
