#ifndef CSHA256_H
#define CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this processor has the x86 SHA extensions (SHA-NI) and SSE4.1, so that
/// `csha256_compress_ni` may be called; 0 otherwise, and always 0 on other architectures.
int csha256_has_ni(void);

/// Hashes `blocks` consecutive 64-byte blocks at `data` into `state` (H0…H7, FIPS 180-4 §6.2.2),
/// with the SHA-NI instructions. Call only when `csha256_has_ni()` returned 1.
void csha256_compress_ni(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
