import BoutiqueSyncServer
import BoutiqueTestSupport
import Foundation
import Testing

/// What every store of attachments' bytes does the same way: pieces at the offset it holds, the whole
/// checked against the id, ranges read back across pieces, each refusal with its kind and nothing kept,
/// tenants apart, each user's upload in progress their own, and an upload again of bytes it holds (a
/// user who must show they have them) checked as a first one.
@Suite struct SyncAttachmentStoreContractTests {
    static func id(of bytes: [UInt8]) throws -> String { SHA256Hasher.hex(try #require(SHA256Hasher.digest(of: bytes))) }

    static func refusal(_ body: () async throws -> Void) async -> AttachmentRefusal? {
        do {
            try await body()
            return nil
        } catch {
            return error as? AttachmentRefusal
        }
    }

    @Test(arguments: AttachmentStoreKind.allCases)
    func piecesMakeAWholeCheckedAttachmentReadBackInRanges(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(maximumAttachmentBytes: 100_000) { store in
            let bytes = [UInt8]((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
            let id = try Self.id(of: bytes), size = Int64(bytes.count)
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "ana").offset == 0)
            var state = try await store.append(Array(bytes[0..<10_000]), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "ana")
            #expect(state.offset == 10_000 && !state.isUploaded)
            // A piece at another offset is refused with where the upload stands.
            let misplaced = await Self.refusal { _ = try await store.append([1], to: id, byteCount: size, at: 5, tenant: "acme", uploader: "ana") }
            #expect(misplaced?.kind == .offsetMismatch && misplaced?.heldOffset == 10_000, "\(String(describing: misplaced))")
            // Not readable before it is whole.
            #expect(await Self.refusal { _ = try await store.read(id, offset: 0, length: 10, tenant: "acme") }?.kind == .notFound)
            state = try await store.append(Array(bytes[10_000..<25_000]), to: id, byteCount: size, at: 10_000, tenant: "acme", uploader: "ana")
            state = try await store.append(Array(bytes[25_000...]), to: id, byteCount: size, at: 25_000, tenant: "acme", uploader: "ana")
            #expect(state.isUploaded && state.offset == size)
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "ana").isUploaded)
            // Ranges across the pieces' edges, and one cut at the end.
            for (offset, length) in [(0, 30_000), (9_990, 20), (24_000, 2_000), (29_990, 100)] {
                let range = try await store.read(id, offset: Int64(offset), length: length, tenant: "acme")
                #expect(range.byteCount == size)
                #expect(range.bytes == Array(bytes[offset..<min(offset + length, bytes.count)]), "\(offset) \(length)")
            }
            #expect(await Self.refusal { _ = try await store.read(id, offset: size, length: 1, tenant: "acme") }?.kind == .rangeNotSatisfiable)
            // Nothing crosses tenants.
            #expect(await Self.refusal { _ = try await store.read(id, offset: 0, length: 1, tenant: "globex") }?.kind == .notFound)
            #expect(try await !store.state(of: id, byteCount: size, tenant: "globex", uploader: "ana").isUploaded)

            // Bytes held whole, uploaded again by someone who must show they have them: others are
            // refused (and the attachment stays readable), the right ones make a whole again.
            let forged = await Self.refusal {
                _ = try await store.append(Array(repeating: 9, count: 30_000), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "ana", evenIfStored: true)
            }
            #expect(forged?.kind == .invalid && forged?.reason.contains("SHA-256") == true, "\(String(describing: forged))")
            #expect(try await store.read(id, offset: 0, length: 5, tenant: "acme").bytes == Array(bytes[0..<5]))
            // A piece that differs is answered as one that matches, and only the last piece tells, as a
            // wrong hash: a user who knows the id cannot guess the stored bytes a piece at a time.
            var guess = Array(bytes[0..<12_000])
            guess[0] ^= 0xFF
            let guessed = try await store.append(guess, to: id, byteCount: size, at: 0, tenant: "acme", uploader: "ana", evenIfStored: true)
            #expect(!guessed.isUploaded && guessed.offset == 12_000, "\(guessed)")
            let failed = await Self.refusal {
                _ = try await store.append(Array(bytes[12_000...]), to: id, byteCount: size, at: 12_000, tenant: "acme", uploader: "ana", evenIfStored: true)
            }
            #expect(failed?.kind == .invalid && failed?.reason.contains("SHA-256") == true, "\(String(describing: failed))")
            var proof = try await store.append(Array(bytes[0..<12_000]), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "ana", evenIfStored: true)
            #expect(!proof.isUploaded && proof.offset == 12_000, "a proof goes piece by piece, as an upload: \(proof)")
            proof = try await store.append(Array(bytes[12_000...]), to: id, byteCount: size, at: 12_000, tenant: "acme", uploader: "ana", evenIfStored: true)
            #expect(proof.isUploaded)
            #expect(try await store.read(id, offset: 0, length: 30_000, tenant: "acme").bytes == bytes)
        }
    }

    @Test(arguments: AttachmentStoreKind.allCases)
    func anUploadInProgressIsItsUploadersOwn(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(maximumAttachmentBytes: 100_000) { store in
            let bytes = [UInt8]((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 17 &+ $0 >> 5) })
            let id = try Self.id(of: bytes), size = Int64(bytes.count)
            let ana = try await store.append(Array(bytes[0..<20_000]), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "ana")
            #expect(ana.offset == 20_000 && !ana.isUploaded)
            // Bob neither learns where ana stands nor goes on from there: the end of the bytes alone
            // does not make them his.
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "bob") == AttachmentUploadState(
                id: id, byteCount: size, offset: 0, isUploaded: false))
            let tail = await Self.refusal {
                _ = try await store.append(Array(bytes[20_000...]), to: id, byteCount: size, at: 20_000, tenant: "acme", uploader: "bob")
            }
            #expect(tail?.kind == .offsetMismatch && tail?.heldOffset == 0, "\(String(describing: tail))")
            #expect(await Self.refusal { _ = try await store.read(id, offset: 0, length: 10, tenant: "acme") }?.kind == .notFound)
            // Ana's other device goes on from where she stands.
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "ana").offset == 20_000)

            // Bob's own upload, side by side, is whole first; ana's next piece is answered as uploaded.
            var bobs = try await store.append(Array(bytes[0..<15_000]), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "bob")
            #expect(bobs.offset == 15_000 && !bobs.isUploaded)
            bobs = try await store.append(Array(bytes[15_000...]), to: id, byteCount: size, at: 15_000, tenant: "acme", uploader: "bob")
            #expect(bobs.isUploaded)
            #expect(try await store.append(Array(bytes[20_000...]), to: id, byteCount: size, at: 20_000, tenant: "acme", uploader: "ana").isUploaded)
            #expect(try await store.read(id, offset: 0, length: 30_000, tenant: "acme").bytes == bytes)

            // Proofs over the whole are each user's own too.
            let carol = try await store.append(
                Array(bytes[0..<10_000]), to: id, byteCount: size, at: 0, tenant: "acme", uploader: "carol", evenIfStored: true)
            #expect(carol.offset == 10_000 && !carol.isUploaded)
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "carol", evenIfStored: true).offset == 10_000)
            #expect(try await store.state(of: id, byteCount: size, tenant: "acme", uploader: "dave", evenIfStored: true) == AttachmentUploadState(
                id: id, byteCount: size, offset: 0, isUploaded: false))
            let daves = await Self.refusal {
                _ = try await store.append(Array(bytes[10_000...]), to: id, byteCount: size, at: 10_000, tenant: "acme", uploader: "dave", evenIfStored: true)
            }
            #expect(daves?.kind == .offsetMismatch && daves?.heldOffset == 0, "\(String(describing: daves))")
            #expect(try await store.append(
                Array(bytes[10_000...]), to: id, byteCount: size, at: 10_000, tenant: "acme", uploader: "carol", evenIfStored: true).isUploaded)
        }
    }

    @Test(arguments: AttachmentStoreKind.allCases)
    func badInputIsRefusedWithItsKindAndNothingIsKept(_ kind: AttachmentStoreKind) async throws {
        try await kind.withStore(maximumAttachmentBytes: 1_000) { store in
            let hello = Array("hello".utf8), world = Array("world".utf8)
            let worldID = try Self.id(of: world)
            // Bytes whose SHA-256 is not the id: refused once whole, and the upload starts again.
            let wrong = await Self.refusal { _ = try await store.append(hello, to: worldID, byteCount: 5, at: 0, tenant: "acme", uploader: "ana") }
            #expect(wrong?.kind == .invalid && wrong?.reason.contains("SHA-256") == true, "\(String(describing: wrong))")
            #expect(try await store.state(of: worldID, byteCount: 5, tenant: "acme", uploader: "ana").offset == 0)
            #expect(await Self.refusal { _ = try await store.read(worldID, offset: 0, length: 5, tenant: "acme") }?.kind == .notFound)
            // A piece longer than announced, an offset past the size, a size past the limit, ids that are not ids.
            #expect(await Self.refusal { _ = try await store.append(hello, to: worldID, byteCount: 3, at: 0, tenant: "acme", uploader: "ana") }?.kind == .invalid)
            #expect(await Self.refusal { _ = try await store.append([], to: worldID, byteCount: 5, at: 6, tenant: "acme", uploader: "ana") }?.kind == .invalid)
            #expect(await Self.refusal { _ = try await store.append(hello, to: worldID, byteCount: 2_000, at: 0, tenant: "acme", uploader: "ana") }?.kind == .tooLarge)
            for notAnID in ["../../etc/passwd", String(repeating: "g", count: 64), worldID.uppercased()] {
                #expect(await Self.refusal { _ = try await store.append(hello, to: notAnID, byteCount: 5, at: 0, tenant: "acme", uploader: "ana") }?.kind == .invalid)
                #expect(await Self.refusal { _ = try await store.read(notAnID, offset: 0, length: 5, tenant: "acme") }?.kind == .invalid)
            }
            // The store goes on: the right bytes are taken.
            #expect(try await store.append(world, to: worldID, byteCount: 5, at: 0, tenant: "acme", uploader: "ana").isUploaded)
            #expect(try await store.read(worldID, offset: 0, length: 5, tenant: "acme").bytes == world)
        }
    }
}
