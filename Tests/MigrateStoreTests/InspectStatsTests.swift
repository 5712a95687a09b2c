import Foundation
import Testing

/// `stats`: the version mix, anomalies by code, and unreadable documents.
@Suite struct InspectStatsTests {
    @Test func versionMixShowsAV1WritersDocumentInAV2Store() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.edit("sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json", replacing: "\"schema_version\": 2", with: "\"schema_version\": 1")
        let run = try fixture.run("stats")
        #expect(run.code == 0)
        #expect(run.stdout.contains("\n  work streams        8  17,830  v1: 1, v2: 7\n"))
        #expect(
            run.stdout.hasSuffix(
                """
                Anomalies: 1 problem, 1 note; 'migrate-store validate <store>' lists each
                  COUNT  CODE
                      1  v1_document_in_v2_store
                      1  orphan_customization (note)

                """))
    }

    @Test func unreadableDocumentIsLeftOutOfTheCountsAndExits65() throws {
        let fixture = try InspectFixture("v2-store")
        try fixture.write("sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json", "[]\n")
        let run = try fixture.run("stats")
        #expect(run.code == 65)
        #expect(run.stdout.contains("\n  work streams        7  "))
        #expect(run.stdout.contains("\n      1  not_an_object\n"))
        #expect(
            run.stderr
                == "Error: 1 document of '<store>' can't be read and is left out of the counts. Run 'migrate-store validate <store>' for every problem.\n")
    }

    @Test func jsonCountsMatchTheSample() throws {
        let object = try InspectFixture("v1-store").json("stats")
        #expect(object["total_files"] as? Int == 14)
        #expect(object["stored_messages"] as? Int == 20)
        #expect(object["reported_messages"] as? Int == 43)
        let queues = try #require(object["queues"] as? [String: Any])
        #expect(queues["source"] as? String == "session_keys")
        #expect(queues["fifo"] as? Int == 3 && queues["priority"] as? Int == 4)
        #expect(queues["queue_enabled"] as? Bool == true && queues["priority_queue_enabled"] as? Bool == true)
        let largest = try #require(object["largest_documents"] as? [[String: Any]])
        #expect(largest.count == 5)
        #expect(largest.first?["file"] as? String == "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json")
    }
}
