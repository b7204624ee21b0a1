// GNU libmicrohttpd, and the calls Swift cannot make itself: the library's option lists are C
// variadic arguments, which Swift does not call.
#ifndef BOUTIQUE_MICROHTTPD_SHIM_H
#define BOUTIQUE_MICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// The memory each connection reads its request's head into and writes its answer's head from (the
/// library's default is 32 KiB). A sync request's head is a few hundred bytes; a head that does not fit
/// is answered 431. The library clears a connection's memory after each answer, so the smaller it is,
/// the fewer fresh pages each answer touches: 10,000 long polls woken at once spent a fifth of the
/// polling thread's time clearing 32 KiB each.
#ifndef BOUTIQUE_MHD_CONNECTION_MEMORY
#define BOUTIQUE_MHD_CONNECTION_MEMORY 8192
#endif

/// Leaves a request's path as the client sent it (libmicrohttpd would decode its percent-escapes in
/// place): a `%00` decoded into the C string would end the path there, so that `/v1/health%00junk`
/// would be served as `/v1/health`. The server decodes the path itself, and refuses one that holds a
/// NUL byte or another control character.
static inline size_t boutique_mhd_keep_escapes(void *context, struct MHD_Connection *connection, char *text)
{
    (void)context;
    (void)connection;
    return strlen(text);
}

/// What libmicrohttpd says while a daemon starts: the first message, kept so that a daemon that does
/// not start (a certificate or key GnuTLS cannot read, a key that is not the certificate's) is
/// refused with the library's reason rather than a guess. Once the daemon runs (`boutique_mhd_log_started`),
/// its messages (a client's failed handshake, say) are dropped: the request log says what clients did.
struct boutique_mhd_log {
    char message[512];
    int started;
};

static inline void boutique_mhd_logger(void *context, const char *format, va_list arguments)
{
    struct boutique_mhd_log *log = context;
    if (__atomic_load_n(&log->started, __ATOMIC_ACQUIRE) || log->message[0] != 0) return;
    vsnprintf(log->message, sizeof log->message, format, arguments);
}

/// Marks the daemon of `log` started: its later messages are dropped.
static inline void boutique_mhd_log_started(struct boutique_mhd_log *log)
{
    __atomic_store_n(&log->started, 1, __ATOMIC_RELEASE);
}

/// The first message logged while starting, "" for none.
static inline const char *boutique_mhd_log_message(const struct boutique_mhd_log *log) { return log->message; }

/// Whether this libmicrohttpd was built with TLS (GnuTLS).
static inline int boutique_mhd_supports_tls(void) { return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES; }

/// The TLS versions a TLS daemon speaks, in GnuTLS's priority syntax: 1.3 and 1.2, nothing older
/// (1.0 and 1.1 are deprecated by RFC 8996), with GnuTLS's default ciphers for those.
#define BOUTIQUE_MHD_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

/// Starts a daemon listening on `host:port` (an IPv4 address; port 0 picks a free one) with one
/// internal polling thread (epoll on Linux; elsewhere the best the library has, as epoll is Linux's
/// alone), suspendable connections (the handlers answer asynchronously), a policy that admits or
/// refuses each new connection by its client's address, a completion callback per request, a callback
/// when a connection opens and closes, and one when a request's first line has arrived. At most
/// `connection_limit` connections, `per_address_limit` of them from one client address (both checked
/// before the policy). With `tls_certificate` and `tls_key` (PEM text, both or neither) it speaks
/// HTTPS only (TLS 1.2 and 1.3), and the library's messages while starting go to `log`. NULL when the
/// address is not IPv4, the port is taken, or the certificate or key is refused.
static inline struct MHD_Daemon *boutique_mhd_start(
    const char *host, uint16_t port, MHD_AcceptPolicyCallback admit, MHD_AccessHandlerCallback handler, void *context,
    MHD_RequestCompletedCallback completed, MHD_NotifyConnectionCallback connection_changed,
    void *(*request_started)(void *context, const char *uri, struct MHD_Connection *connection),
    unsigned int connection_limit, unsigned int per_address_limit, unsigned int idle_timeout_seconds,
    const char *tls_certificate, const char *tls_key, struct boutique_mhd_log *log)
{
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
#if defined(__linux__)
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
#else
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC;
#endif
    int tls = tls_certificate != NULL && tls_key != NULL;
    if (tls) flags |= MHD_USE_TLS;
    if (log != NULL) flags |= MHD_USE_ERROR_LOG;
    // The TLS options go last: without TLS the list ends before them (an option a plain daemon is
    // given is refused by the library).
    // The logger first: the library reads the options in order, and logs what it finds wrong with
    // the ones before it to standard error.
    return MHD_start_daemon(
        flags, port, admit, context, handler, context,
        MHD_OPTION_EXTERNAL_LOGGER, log != NULL ? boutique_mhd_logger : NULL, log,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_NOTIFY_CONNECTION, connection_changed, context,
        MHD_OPTION_URI_LOG_CALLBACK, request_started, context,
        MHD_OPTION_UNESCAPE_CALLBACK, boutique_mhd_keep_escapes, NULL,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)BOUTIQUE_MHD_CONNECTION_MEMORY,
        tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, tls_certificate,
        MHD_OPTION_HTTPS_MEM_KEY, tls_key,
        MHD_OPTION_HTTPS_PRIORITIES, BOUTIQUE_MHD_TLS_PRIORITIES,
        MHD_OPTION_END);
}

/// `address` as text (IPv4 or IPv6) into `out`; an empty string when it is of another family.
static inline void boutique_address_text(const struct sockaddr *address, char *out, size_t size)
{
    out[0] = 0;
    if (address == NULL) return;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, (socklen_t)size);
    }
}

/// The client's address as text (IPv4 or IPv6) into `out`; an empty string when unknown.
static inline void boutique_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size)
{
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL) return;
    boutique_address_text(info->client_addr, out, size);
}

/// The connection's socket, -1 when unknown.
static inline int boutique_mhd_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// What a request's head says about how its body is framed, and whether a header hides a NUL byte.
struct boutique_framing {
    unsigned int content_lengths;
    /// Set when two Content-Length headers differ in their text.
    int content_lengths_differ;
    unsigned int transfer_encodings;
    /// Set when a Transfer-Encoding header is anything but `chunked`.
    int unknown_transfer_coding;
    /// Set when a header line holds a NUL byte, which libmicrohttpd takes for the end of its value.
    int nul_in_value;
    const char *first_content_length;
    size_t first_content_length_size;
    /// The byte after the previous header's value, while it is neither a line end nor the next key.
    const char *unexplained_end;
};

/// libmicrohttpd (0.9.x) keeps a header's value as a C string inside its read buffer, the line's
/// end (CR LF, or a bare LF) overwritten with zeros, so a value holding a NUL byte silently loses
/// whatever follows it (`Bearer TOKEN\0junk` reads as `Bearer TOKEN`). Such a line is told apart by the
/// byte after the value's end: after a real line end it is a zero (the LF of CR LF overwritten) or,
/// after a bare LF, the first byte of the next header's name (or the zero of the blank line ending the
/// head); after a NUL from the client it is neither. The byte read is inside the buffer in every case:
/// a value is followed by its line's end and the head's blank line. This reads the layout of the
/// versions it was checked on (0.9.75 and older). Later ones, whose header parser was rewritten, are
/// not checked here: there the check is left out rather than risk refusing every request, and a
/// value with a NUL is up to the library's own header checks.
static inline void boutique_mhd_note_value_end(struct boutique_framing *framing, const char *next_key)
{
    if (framing->unexplained_end != NULL && framing->unexplained_end != next_key) framing->nul_in_value = 1;
    framing->unexplained_end = NULL;
}

static inline enum MHD_Result boutique_mhd_framing_header(
    void *context, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    struct boutique_framing *framing = context;
    boutique_mhd_note_value_end(framing, key);
#if MHD_VERSION < 0x00097600
    if (value != NULL && value[value_size + 1] != 0) framing->unexplained_end = value + value_size + 1;
#endif
    if (key == NULL) return MHD_YES;
    if (key_size == 14 && strncasecmp(key, "Content-Length", 14) == 0) {
        if (framing->content_lengths > 0
            && (value_size != framing->first_content_length_size || memcmp(value, framing->first_content_length, value_size) != 0))
            framing->content_lengths_differ = 1;
        if (framing->content_lengths == 0) {
            framing->first_content_length = value;
            framing->first_content_length_size = value_size;
        }
        framing->content_lengths += 1;
    } else if (key_size == 17 && strncasecmp(key, "Transfer-Encoding", 17) == 0) {
        framing->transfer_encodings += 1;
        if (value == NULL || value_size != 7 || strncasecmp(value, "chunked", 7) != 0) framing->unknown_transfer_coding = 1;
    }
    return MHD_YES;
}

/// Fills `framing` from the request's headers.
static inline void boutique_mhd_framing(struct MHD_Connection *connection, struct boutique_framing *framing)
{
    memset(framing, 0, sizeof *framing);
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, boutique_mhd_framing_header, framing);
    boutique_mhd_note_value_end(framing, NULL);
}

/// The HTTP status of the response queued on `connection`, 0 when none is: for a request
/// libmicrohttpd answered itself (a head too large for the connection's memory, a Content-Length it
/// cannot read), which the server's handler never saw.
static inline unsigned int boutique_mhd_queued_status(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_HTTP_STATUS);
    return info == NULL ? 0 : info->http_status;
}

/// Whether the request line whose target starts at `uri` hides a NUL byte in its target, which
/// libmicrohttpd (0.9.x) takes for the target's end (`GET /v1/health\0junk HTTP/1.1` reads as
/// `/v1/health`). Called from the request-line callback, before the library changes the target: the
/// line is `METHOD SP TARGET SP VERSION` inside the read buffer, the space before the version (or the
/// line's end) overwritten with a zero. After a target that ends there, the next byte is the version's
/// `H` (or the zero of the line end, for a line without a version); after a NUL from the client it is
/// neither. The bytes read are inside the buffer: the line and its end are. Versions whose parser was
/// rewritten (0.9.76 and later) are not checked here, as for header values.
static inline int boutique_mhd_target_hides_nul(const char *uri)
{
#if MHD_VERSION < 0x00097600
    if (uri == NULL) return 0;
    const char *end = uri + strlen(uri);
    char next = end[1];
    return next != 'H' && next != 0 && next != '\r' && next != '\n';
#else
    (void)uri;
    return 0;
#endif
}

/// The port a daemon listens on (the one picked when it was started with port 0), 0 when unknown.
static inline uint16_t boutique_mhd_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Queues a response whose body is `body`, sent from where it is (not copied) and handed to
/// `release(owner)` once the library is done with it — sent, or dropped with its connection — or at
/// once when no response can be made. With a Content-Type, an X-Request-Id when `request_id` is not
/// NULL, a Retry-After header when `retry_after` is positive, and `Connection: close` when
/// `close_connection` is set (libmicrohttpd then closes the connection once it is sent, reading
/// nothing more from it). MHD_YES when queued.
static inline enum MHD_Result boutique_mhd_respond(
    struct MHD_Connection *connection, unsigned int status, void *body, size_t length,
    MHD_ContentReaderFreeCallback release, void *owner,
    const char *content_type, unsigned int retry_after, const char *request_id, int close_connection)
{
    struct MHD_Response *response = MHD_create_response_from_buffer_with_free_callback_cls(length, body, release, owner);
    if (response == NULL) {
        release(owner);
        return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    if (request_id != NULL) MHD_add_response_header(response, "X-Request-Id", request_id);
    if (retry_after > 0) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%u", retry_after);
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    if (close_connection) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

#endif
