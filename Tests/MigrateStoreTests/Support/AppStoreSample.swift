import Foundation
import TestSupport

@testable import JSONStore

/// The app's store as the tests write it, for any model version: three work streams (one with
/// every attribute set, one with `backendName` and `workingDirectory` both "", one created
/// locally whose `backendName` is its lower-case id), their messages, three customisations (one
/// of a work stream that does not exist, one with no `createdAt`), a message of no work stream,
/// one whose relationship names another work stream, and, only in the `-wal`, a fourth work
/// stream with a message.
enum AppStoreSample {
    static let a = UUID(uuidString: "A1B2C3D4-0000-4000-8000-00000000000A")!
    static let b = UUID(uuidString: "0B000000-0000-4000-8000-00000000000B")!
    static let c = UUID(uuidString: "C0000000-0000-4000-8000-00000000000C")!
    static let walOnly = UUID(uuidString: "D0000000-0000-4000-8000-00000000000D")!
    static let missing = UUID(uuidString: "E0000000-0000-4000-8000-00000000000E")!
    static let nowhere = UUID(uuidString: "F0000000-0000-4000-8000-00000000000F")!
    static let m1 = UUID(uuidString: "10000000-0000-4000-8000-000000000001")!
    static let m2 = UUID(uuidString: "20000000-0000-4000-8000-000000000002")!
    static let m3 = UUID(uuidString: "30000000-0000-4000-8000-000000000003")!
    static let orphan = UUID(uuidString: "40000000-0000-4000-8000-000000000004")!
    static let m5 = UUID(uuidString: "50000000-0000-4000-8000-000000000005")!
    static let unicode = "Why does login crash? 🚀 Ünïcödé 日本語 \"quoted\" \\ tab\t"
    /// 0.1 + 0.2: a double whose shortest text has 17 digits.
    static let order = 0.1 + 0.2

    typealias F = CoreDataFixture

    /// Writes `VoiceCode.sqlite` (and its `-wal`, `-shm`) into `folder`; returns its path.
    @discardableResult
    static func write(version: Int, in folder: String, name: String = "VoiceCode.sqlite") throws -> String {
        let fixture = try CoreDataFixture(folder + "/.build-" + name, version: version)
        var pkA: Int64 = 0
        try fixture.transaction {
            pkA = try fixture.insert(
                "ZCDBACKENDSESSION",
                [
                    "ZID": F.blob(a), "ZBACKENDNAME": .text("Fix login – \(unicode)"), "ZWORKINGDIRECTORY": .text("/Users/ana/app"),
                    "ZLASTMODIFIED": F.date("2025-10-17T14:30:00.123Z"), "ZMESSAGECOUNT": .integer(2), "ZPREVIEW": .text("Hello"),
                    "ZUNREADCOUNT": .integer(1), "ZISLOCALLYCREATED": .integer(0), "ZISINQUEUE": .integer(1), "ZQUEUEPOSITION": .integer(2),
                    "ZQUEUEDAT": F.date("2025-10-17T14:31:00.001Z"), "ZISINPRIORITYQUEUE": .integer(1), "ZPRIORITY": .integer(1),
                    "ZPRIORITYORDER": .real(order), "ZPRIORITYQUEUEDAT": F.date("2025-10-17T14:32:00.999Z"), "ZPROVIDER": .text("cursor"),
                    "ZNEXTSEQ": .integer(42), "ZLIVEFROMSEQ": .integer(40), "ZLASTOFFSETMERGED": .integer(12_345_678_901),
                    "ZLIVEFROMOFFSET": .integer(7), "ZLASTFILESIGNATURE": .text("sig-1"),
                ])
            try fixture.insert(
                "ZCDBACKENDSESSION",
                [
                    "ZID": F.blob(b), "ZBACKENDNAME": .text(""), "ZWORKINGDIRECTORY": .text(""), "ZLASTMODIFIED": F.date("2025-10-16T09:00:00.000Z"),
                    "ZMESSAGECOUNT": .integer(0), "ZPREVIEW": .text(""), "ZUNREADCOUNT": .integer(0), "ZISLOCALLYCREATED": .integer(0),
                    "ZISINQUEUE": .integer(1), "ZQUEUEPOSITION": .integer(1), "ZQUEUEDAT": F.date("2025-10-16T09:01:00.000Z"),
                    "ZISINPRIORITYQUEUE": .integer(1), "ZPRIORITY": .integer(5), "ZPRIORITYORDER": .real(0.25),
                    "ZPROVIDER": .text("claude"), "ZNEXTSEQ": .integer(0), "ZLIVEFROMSEQ": .integer(0), "ZLASTOFFSETMERGED": .integer(0),
                    "ZLIVEFROMOFFSET": .integer(0),
                ])
            try fixture.insert(
                "ZCDBACKENDSESSION",
                [
                    "ZID": F.blob(c), "ZBACKENDNAME": .text(c.uuidString.lowercased()), "ZWORKINGDIRECTORY": .text("/tmp/new"),
                    "ZLASTMODIFIED": F.date("2025-10-18T00:00:00.000Z"), "ZMESSAGECOUNT": .integer(0), "ZPREVIEW": .text(""),
                    "ZUNREADCOUNT": .integer(0), "ZISLOCALLYCREATED": .integer(1), "ZISINQUEUE": .integer(1), "ZQUEUEPOSITION": .integer(5),
                    "ZISINPRIORITYQUEUE": .integer(1), "ZPRIORITY": .integer(10), "ZPRIORITYORDER": .real(2.5), "ZPROVIDER": .text("claude"),
                    "ZNEXTSEQ": .integer(0), "ZLIVEFROMSEQ": .integer(0), "ZLASTOFFSETMERGED": .integer(0), "ZLIVEFROMOFFSET": .integer(0),
                ])
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(m1), "ZSESSIONID": F.blob(a), "ZSESSION": .integer(pkA), "ZROLE": .text("user"), "ZTEXT": .text(unicode),
                    "ZTIMESTAMP": F.date("2025-10-17T14:29:00.456Z"), "ZSTATUS": .text("confirmed"), "ZSEQ": .integer(41), "ZOFFSET": .integer(900),
                ])
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(m2), "ZSESSIONID": F.blob(a), "ZSESSION": .integer(pkA), "ZROLE": .text("assistant"), "ZTEXT": .text("Because."),
                    "ZTIMESTAMP": F.date("2025-10-17T14:29:30.000Z"), "ZSERVERTIMESTAMP": F.date("2025-10-17T14:29:31.789Z"),
                    "ZSTATUS": .text("sending"), "ZSEQ": .integer(42), "ZOFFSET": .integer(1000),
                ])
            // B's message, whose relationship names A.
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(m3), "ZSESSIONID": F.blob(b), "ZSESSION": .integer(pkA), "ZROLE": .text("user"), "ZTEXT": .text("B's"),
                    "ZTIMESTAMP": F.date("2025-10-16T09:00:30.000Z"), "ZSTATUS": .text("error"), "ZSEQ": .integer(0), "ZOFFSET": .integer(0),
                ])
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(orphan), "ZSESSIONID": F.blob(nowhere), "ZROLE": .text("user"), "ZTEXT": .text("lost"),
                    "ZTIMESTAMP": F.date("2025-10-15T00:00:00.000Z"), "ZSTATUS": .text("confirmed"), "ZSEQ": .integer(0), "ZOFFSET": .integer(0),
                ])
            try fixture.insert(
                "ZCDUSERSESSION",
                [
                    "ZID": F.blob(a), "ZCUSTOMNAME": .text("Ana's work 🚀"), "ZISUSERDELETED": .integer(0),
                    "ZCREATEDAT": F.date("2025-10-01T08:00:00.500Z"),
                ])
            try fixture.insert(
                "ZCDUSERSESSION",
                [
                    "ZID": F.blob(missing), "ZCUSTOMNAME": .null, "ZISUSERDELETED": .integer(1),
                    "ZCREATEDAT": F.date("2025-10-02T08:00:00.000Z"),
                ])
            try fixture.insert("ZCDUSERSESSION", ["ZID": F.blob(c), "ZCUSTOMNAME": .text("New"), "ZISUSERDELETED": .integer(0)])
        }
        try fixture.checkpoint()
        // The last commit: only in the -wal.
        try fixture.transaction {
            let pkD = try fixture.insert(
                "ZCDBACKENDSESSION",
                [
                    "ZID": F.blob(walOnly), "ZBACKENDNAME": .text("From the WAL"), "ZWORKINGDIRECTORY": .text("/w"),
                    "ZLASTMODIFIED": F.date("2025-10-19T00:00:00.000Z"), "ZMESSAGECOUNT": .integer(1), "ZPREVIEW": .text(""),
                    "ZUNREADCOUNT": .integer(0), "ZISLOCALLYCREATED": .integer(0), "ZISINQUEUE": .integer(0), "ZQUEUEPOSITION": .integer(0),
                    "ZISINPRIORITYQUEUE": .integer(0), "ZPRIORITY": .integer(10), "ZPRIORITYORDER": .real(0), "ZPROVIDER": .text("claude"),
                    "ZNEXTSEQ": .integer(0), "ZLIVEFROMSEQ": .integer(0), "ZLASTOFFSETMERGED": .integer(0), "ZLIVEFROMOFFSET": .integer(0),
                ])
            try fixture.insert(
                "ZCDMESSAGE",
                [
                    "ZID": F.blob(m5), "ZSESSIONID": F.blob(walOnly), "ZSESSION": .integer(pkD), "ZROLE": .text("user"),
                    "ZTEXT": .text("only in the WAL"), "ZTIMESTAMP": F.date("2025-10-19T00:00:01.000Z"), "ZSTATUS": .text("confirmed"),
                    "ZSEQ": .integer(0), "ZOFFSET": .integer(0),
                ])
        }
        let path = folder + "/" + name
        try fixture.copyFiles(to: path)
        return path
    }

    /// Generated rows at scale: `workStreams` work streams with `messagesEach` messages, every
    /// tenth in the FIFO queue and every seventh in the priority queue, all committed to the main file.
    @discardableResult
    static func generate(workStreams: Int, messagesEach: Int, version: Int = 7, at path: String) throws -> String {
        let fixture = try CoreDataFixture(path + ".build", version: version)
        var rng = SystemRandomNumberGenerator()
        let base = 780_000_000.0
        try fixture.transaction {
            for i in 0..<workStreams {
                let id = UUID()
                let pk = try fixture.insert(
                    "ZCDBACKENDSESSION",
                    [
                        "ZID": F.blob(id), "ZBACKENDNAME": .text("Work stream \(i)"), "ZWORKINGDIRECTORY": .text("/Users/ana/p\(i % 17)"),
                        "ZLASTMODIFIED": .real(base + Double(i)), "ZMESSAGECOUNT": .integer(Int64(messagesEach)), "ZPREVIEW": .text("preview \(i)"),
                        "ZUNREADCOUNT": .integer(0), "ZISLOCALLYCREATED": .integer(0), "ZISINQUEUE": .integer(i % 10 == 0 ? 1 : 0),
                        "ZQUEUEPOSITION": .integer(i % 10 == 0 ? Int64(i / 10 + 1) : 0), "ZISINPRIORITYQUEUE": .integer(i % 7 == 0 ? 1 : 0),
                        "ZPRIORITY": .integer([1, 5, 10][i % 3]), "ZPRIORITYORDER": .real(Double(i % 7 == 0 ? i : 0)), "ZPROVIDER": .text("claude"),
                        "ZNEXTSEQ": .integer(Int64(messagesEach)), "ZLIVEFROMSEQ": .integer(0),
                        "ZLASTOFFSETMERGED": .integer(Int64(max(messagesEach - 1, 0) * 100)), "ZLIVEFROMOFFSET": .integer(0),
                    ])
                for j in 0..<messagesEach {
                    try fixture.insert(
                        "ZCDMESSAGE",
                        [
                            "ZID": F.blob(UUID()), "ZSESSIONID": F.blob(id), "ZSESSION": .integer(pk), "ZROLE": .text(j % 2 == 0 ? "user" : "assistant"),
                            "ZTEXT": .text(String(repeating: "word ", count: 20 + Int(rng.next() % 200))),
                            "ZTIMESTAMP": .real(base + Double(i) + Double(j) / 100),
                            "ZSTATUS": .text("confirmed"), "ZSEQ": .integer(Int64(j + 1)), "ZOFFSET": .integer(Int64(j * 100)),
                        ])
                }
            }
        }
        try fixture.checkpoint()
        try fixture.copyFiles(to: path)
        return path
    }
}
