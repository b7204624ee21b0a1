// OpenSSL's libcrypto: SHA-256 for attachment ids (its EVP_Digest functions are called directly),
// HMAC-SHA256 and a constant-time compare for the server's own tokens, and the public-key signatures
// (RSA PKCS #1 v1.5 and ECDSA P-256, both over SHA-256) that identity providers' JSON Web Tokens carry.
// Keys are built from their JWK numbers with OpenSSL 3's EVP_PKEY_fromdata.
#ifndef BOUTIQUE_CRYPTO_SHIM_H
#define BOUTIQUE_CRYPTO_SHIM_H

#include <stddef.h>
#include <string.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/param_build.h>

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

/// An RSA public key from its modulus and exponent (big-endian bytes, as a JWK's `n` and `e`), or NULL.
/// Free it with `boutique_free_key`.
static inline EVP_PKEY *boutique_rsa_public_key(const unsigned char *n, size_t n_length, const unsigned char *e, size_t e_length)
{
    if (n_length > 0x7fffffff || e_length > 0x7fffffff) return NULL;
    EVP_PKEY *key = NULL;
    BIGNUM *modulus = BN_bin2bn(n, (int)n_length, NULL);
    BIGNUM *exponent = BN_bin2bn(e, (int)e_length, NULL);
    OSSL_PARAM_BLD *builder = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (modulus && exponent && builder && context
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_N, modulus)
        && OSSL_PARAM_BLD_push_BN(builder, OSSL_PKEY_PARAM_RSA_E, exponent)
        && (params = OSSL_PARAM_BLD_to_param(builder)) != NULL
        && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(builder);
    EVP_PKEY_CTX_free(context);
    BN_free(modulus);
    BN_free(exponent);
    return key;
}

/// An EC P-256 public key from its coordinates (32 big-endian bytes each, as a JWK's `x` and `y`), or
/// NULL — also when the point is not on the curve. Free it with `boutique_free_key`.
static inline EVP_PKEY *boutique_p256_public_key(const unsigned char x[32], const unsigned char y[32])
{
    unsigned char point[65];
    point[0] = 0x04; // uncompressed
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    EVP_PKEY *key = NULL;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)"prime256v1", 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point);
    params[2] = OSSL_PARAM_construct_end();
    EVP_PKEY_CTX *context = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (context && EVP_PKEY_fromdata_init(context) == 1) {
        if (EVP_PKEY_fromdata(context, &key, EVP_PKEY_PUBLIC_KEY, params) != 1) key = NULL;
    }
    EVP_PKEY_CTX_free(context);
    if (key) {
        // fromdata takes the point as given; a point off the curve is refused here.
        EVP_PKEY_CTX *check = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
        int valid = check && EVP_PKEY_public_check(check) == 1;
        EVP_PKEY_CTX_free(check);
        if (!valid) { EVP_PKEY_free(key); key = NULL; }
    }
    return key;
}

/// The size of the key in bits (an RSA modulus's), 0 for none.
static inline int boutique_key_bits(const EVP_PKEY *key) { return key ? EVP_PKEY_get_bits(key) : 0; }

static inline void boutique_free_key(EVP_PKEY *key) { EVP_PKEY_free(key); }

/// Whether `signature` is `key`'s signature over SHA-256 of `data`: RSA PKCS #1 v1.5, or ECDSA with a
/// DER-encoded signature. 1 valid, 0 not.
static inline int boutique_verify_sha256(EVP_PKEY *key, const void *data, size_t length, const unsigned char *signature, size_t signature_length)
{
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (!context) return 0;
    int valid = EVP_DigestVerifyInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestVerify(context, signature, signature_length, (const unsigned char *)data, length) == 1;
    EVP_MD_CTX_free(context);
    return valid;
}

/// A JWS ES256 signature (r and s, 32 big-endian bytes each) as the DER `ECDSA-Sig-Value` OpenSSL
/// verifies. The bytes written (at most 72), 0 on failure.
static inline size_t boutique_ecdsa_raw_to_der(const unsigned char raw[64], unsigned char out[80])
{
    ECDSA_SIG *signature = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(raw, 32, NULL);
    BIGNUM *s = BN_bin2bn(raw + 32, 32, NULL);
    if (!signature || !r || !s || ECDSA_SIG_set0(signature, r, s) != 1) {
        ECDSA_SIG_free(signature);
        BN_free(r);
        BN_free(s);
        return 0;
    }
    size_t written = 0;
    if (i2d_ECDSA_SIG(signature, NULL) <= 80) {
        unsigned char *cursor = out;
        int length = i2d_ECDSA_SIG(signature, &cursor);
        written = length > 0 ? (size_t)length : 0;
    }
    ECDSA_SIG_free(signature);
    return written;
}

// MARK: Signing, for tests that mint tokens as an identity provider would

/// A new RSA key pair of `bits`, or a new P-256 key pair when `bits` is 0; NULL on failure.
static inline EVP_PKEY *boutique_generate_key(unsigned int bits)
{
    return bits == 0 ? EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256") : EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)bits);
}

/// A big-number parameter of `key` (`n`, `e`) as `size` big-endian bytes, left-padded; 0 when `size` is
/// 0 or too small, else `size`. With `size` 0 it returns the bytes needed.
static inline size_t boutique_key_number(const EVP_PKEY *key, const char *name, unsigned char *out, size_t size)
{
    BIGNUM *number = NULL;
    if (EVP_PKEY_get_bn_param(key, name, &number) != 1) return 0;
    size_t needed = (size_t)BN_num_bytes(number);
    size_t result = needed;
    if (size > 0) result = BN_bn2binpad(number, out, (int)size) == (int)size ? size : 0;
    BN_free(number);
    return result;
}

/// The uncompressed public point (65 bytes: 0x04, x, y) of a P-256 key. 1 on success.
static inline int boutique_p256_point(const EVP_PKEY *key, unsigned char out[65])
{
    size_t written = 0;
    return EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, 65, &written) == 1 && written == 65;
}

/// `key`'s signature over SHA-256 of `data` into `out` (`capacity` bytes): RSA PKCS #1 v1.5, or ECDSA
/// in DER. The bytes written, 0 on failure.
static inline size_t boutique_sign_sha256(EVP_PKEY *key, const void *data, size_t length, unsigned char *out, size_t capacity)
{
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    size_t written = capacity;
    int ok = context && EVP_DigestSignInit(context, NULL, EVP_sha256(), NULL, key) == 1
        && EVP_DigestSign(context, out, &written, (const unsigned char *)data, length) == 1;
    EVP_MD_CTX_free(context);
    return ok ? written : 0;
}

/// A DER ECDSA signature as JWS's raw r and s (32 bytes each). 1 on success.
static inline int boutique_ecdsa_der_to_raw(const unsigned char *der, size_t length, unsigned char out[64])
{
    const unsigned char *cursor = der;
    ECDSA_SIG *signature = d2i_ECDSA_SIG(NULL, &cursor, (long)length);
    if (!signature) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(signature, &r, &s);
    int ok = BN_bn2binpad(r, out, 32) == 32 && BN_bn2binpad(s, out + 32, 32) == 32;
    ECDSA_SIG_free(signature);
    return ok;
}

#endif
