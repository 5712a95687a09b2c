import StoreGenerator
import Testing

@testable import JSONStore

/// The block function on SHA-NI (`SHA256.Accelerated`, issue 19) against the portable Swift
/// rounds, on the same random blocks from the same random states. Where the processor has no
/// SHA-NI there is nothing to compare, and the test says so by checking the flag only.
@Suite struct SHA256AcceleratedTests {
    @Test func theSHAInstructionsGiveThePortableStateForRandomBlocks() {
        guard SHA256.Accelerated.isAvailable else {
            #expect(!SHA256.Accelerated.isAvailable)
            return
        }
        var generator = SeededGenerator(seed: 256)
        for _ in 0..<500 {
            let blocks = Int.random(in: 1...9, using: &generator)
            // An odd offset: the loads are unaligned.
            let offset = Int.random(in: 0...15, using: &generator)
            let bytes = (0..<offset + 64 * blocks).map { _ in UInt8.random(in: 0...255, using: &generator) }
            func random() -> UInt32 { UInt32.random(in: 0 ... .max, using: &generator) }
            let start = SHA256.State(
                h0: random(), h1: random(), h2: random(), h3: random(),
                h4: random(), h5: random(), h6: random(), h7: random())
            var portable = start, accelerated = start
            bytes.withUnsafeBytes { raw in
                SHA256.compressPortable(raw.baseAddress! + offset, blocks: blocks, into: &portable)
                SHA256.Accelerated.compress(raw.baseAddress! + offset, blocks: blocks, into: &accelerated)
            }
            #expect(accelerated.bigEndianBytes == portable.bigEndianBytes)
        }
    }
}
