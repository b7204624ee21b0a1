// GNU libmicrohttpd, and the calls Swift cannot make itself: the library's option lists are C
// variadic arguments, which Swift does not call.
#ifndef BOUTIQUE_MICROHTTPD_SHIM_H
#define BOUTIQUE_MICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Starts a daemon listening on `host:port` (an IPv4 address; port 0 picks a free one) with one
/// internal polling thread (epoll on Linux; elsewhere the best the library has, as epoll is Linux's
/// alone), suspendable connections (the handlers answer asynchronously) and a completion callback per
/// request. NULL when the address is not IPv4 or the port is taken.
static inline struct MHD_Daemon *boutique_mhd_start(
    const char *host, uint16_t port, MHD_AccessHandlerCallback handler, void *context,
    MHD_RequestCompletedCallback completed, unsigned int connection_limit, unsigned int idle_timeout_seconds)
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
    return MHD_start_daemon(
        flags, port, NULL, NULL, handler, context,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)&address,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, idle_timeout_seconds,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_END);
}

/// The port a daemon listens on (the one picked when it was started with port 0), 0 when unknown.
static inline uint16_t boutique_mhd_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// Queues a response whose body is copied from `body`, with a Content-Type and, when `retry_after`
/// is positive, a Retry-After header. MHD_YES when queued.
static inline enum MHD_Result boutique_mhd_respond(
    struct MHD_Connection *connection, unsigned int status, const void *body, size_t length,
    const char *content_type, unsigned int retry_after)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    if (retry_after > 0) {
        char seconds[16];
        snprintf(seconds, sizeof seconds, "%u", retry_after);
        MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, seconds);
    }
    enum MHD_Result queued = MHD_queue_response(connection, status, response);
    MHD_destroy_response(response);
    return queued;
}

#endif
