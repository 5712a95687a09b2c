// The SHA-256 block function with the x86 SHA extensions (SHA-NI: sha256rnds2, sha256msg1,
// sha256msg2), for `SHA256.compress` in StoreFiles. The Swift version does about 47 instructions
// per byte; these instructions do the same rounds in about 2 cycles per byte, and every backup,
// export and import hashes each byte of the store once or twice. Nothing here is
// taken from a library: it is the procedure of Intel's "Intel SHA Extensions" white paper
// (Gulley et al., 2013), FIPS 180-4 §6.2.2 computed four rounds per two instructions.
#include "CSHA256.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <cpuid.h>
#include <immintrin.h>

int csha256_has_ni(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const int ssse3 = (ecx >> 9) & 1, sse41 = (ecx >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const int sha = (ebx >> 29) & 1;
    return ssse3 && sse41 && sha;
}

// K(0)…K(63), FIPS 180-4 §4.2.2; loaded four at a time (lane i holds K(4q + i)).
static const uint32_t K[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

__attribute__((target("sha,sse4.1,ssse3")))
void csha256_compress_ni(uint32_t state[8], const uint8_t *data, size_t blocks) {
    // Byte order: message words are big-endian (FIPS 180-4 §3.1); this swaps each 32-bit lane.
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    // sha256rnds2 keeps the state as (A, B, E, F) and (C, D, G, H).
    __m128i tmp = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xB1);  // C D A B
    __m128i cdgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1B); // E F G H
    __m128i abef = _mm_alignr_epi8(tmp, cdgh, 8);
    cdgh = _mm_blend_epi16(cdgh, tmp, 0xF0);

    for (size_t block = 0; block < blocks; block++, data += 64) {
        const __m128i abefSaved = abef, cdghSaved = cdgh;
        // w[q % 4] holds W(4q)…W(4q+3): the message schedule, four words at a time.
        __m128i w[4];
        for (int q = 0; q < 16; q++) {
            if (q < 4) w[q] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * q)), swap);
            __m128i message = _mm_add_epi32(w[q % 4], _mm_load_si128((const __m128i *)&K[4 * q]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);  // rounds 4q, 4q+1
            if (q >= 3 && q <= 14) {
                // W(4q+4)…W(4q+7), from sha256msg1's partial sums, W(t-7) and sha256msg2.
                __m128i next = _mm_add_epi32(w[(q + 1) % 4], _mm_alignr_epi8(w[q % 4], w[(q + 3) % 4], 4));
                w[(q + 1) % 4] = _mm_sha256msg2_epu32(next, w[q % 4]);
            }
            message = _mm_shuffle_epi32(message, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, message);  // rounds 4q+2, 4q+3
            if (q >= 1 && q <= 12) w[(q + 3) % 4] = _mm_sha256msg1_epu32(w[(q + 3) % 4], w[q % 4]);
        }
        abef = _mm_add_epi32(abef, abefSaved);
        cdgh = _mm_add_epi32(cdgh, cdghSaved);
    }

    tmp = _mm_shuffle_epi32(abef, 0x1B);   // F E B A
    cdgh = _mm_shuffle_epi32(cdgh, 0xB1);  // D C H G
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(tmp, cdgh, 0xF0));  // D C B A
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(cdgh, tmp, 8));     // H G F E
}

#else

int csha256_has_ni(void) { return 0; }

void csha256_compress_ni(uint32_t state[8], const uint8_t *data, size_t blocks) {
    (void)state; (void)data; (void)blocks;
}

#endif
