import CSHA256

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SHA256 {
    /// The block function on the processor's SHA instructions where it has them (x86-64 SHA-NI,
    /// `Sources/CSHA256`), else `compressPortable`.
    ///
    /// Why: a backup hashes every byte of the store once and an export twice (each file's
    /// SHA-256 and the trailer's of every line); at ~47 instructions per byte the portable
    /// Swift rounds are half of an export's instructions. The SHA-NI
    /// rounds compute the same FIPS 180-4 §6.2.2 function (tests compare both on random input).
    package enum Accelerated {
        /// True when the processor has SHA-NI and SSE4.1 (CPUID, read once). Always false on
        /// other architectures. `STORE_SHA256_PORTABLE=1` in the environment turns it off (for
        /// measuring the difference).
        package static let isAvailable: Bool = {
            if let value = getenv("STORE_SHA256_PORTABLE"), String(cString: value) == "1" { return false }
            return csha256_has_ni() == 1
        }()

        /// `compress` with SHA-NI; call only when `isAvailable`.
        package static func compress(_ start: UnsafeRawPointer, blocks: Int, into state: inout State) {
            precondition(isAvailable, "SHA256.Accelerated: the processor has no SHA-NI")
            var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
                (state.h0, state.h1, state.h2, state.h3, state.h4, state.h5, state.h6, state.h7)
            withUnsafeMutableBytes(of: &words) { raw in
                csha256_compress_ni(
                    raw.baseAddress!.assumingMemoryBound(to: UInt32.self),
                    start.assumingMemoryBound(to: UInt8.self), blocks)
            }
            state = State(h0: words.0, h1: words.1, h2: words.2, h3: words.3, h4: words.4, h5: words.5, h6: words.6, h7: words.7)
        }
    }
}
