// OpenSSL's libcrypto: the two primitives sync tokens need, HMAC-SHA256 and a constant-time compare.
#ifndef BOUTIQUE_CRYPTO_SHIM_H
#define BOUTIQUE_CRYPTO_SHIM_H

#include <stddef.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

/// HMAC-SHA256 of `data` under `key` into `out` (32 bytes). 1 on success, 0 on failure.
static inline int boutique_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length, unsigned char out[32])
{
    unsigned int written = 0;
    if (key_length > 0x7fffffff) return 0;
    return HMAC(EVP_sha256(), key, (int)key_length, (const unsigned char *)data, length, out, &written) != NULL && written == 32;
}

/// Whether the two buffers of `length` bytes are equal, in time independent of where they differ.
static inline int boutique_constant_time_equal(const void *a, const void *b, size_t length)
{
    return CRYPTO_memcmp(a, b, length) == 0;
}

#endif
