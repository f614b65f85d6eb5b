import Crypto

/// `password-crypt-sha256` (`$5$`) and `password-crypt-sha512` (`$6$`): Ulrich Drepper's
/// SHA-crypt as glibc's crypt(3) writes it, `$5$[rounds=N$]salt$hash` (5000 rounds when not
/// written; at most 16 characters of salt).
struct SHACryptScheme<Hash: HashFunction>: PasswordHashScheme {
    let captureType: String
    let prefix: String
    /// The order in which the digest's bytes are written, in groups of three.
    let order: [Int]

}

extension SHACryptScheme where Hash == SHA256 {
    static var sha256: Self {
        Self(
            captureType: "password-crypt-sha256", prefix: "$5$",
            order: [
                20, 10, 0, 11, 1, 21, 2, 22, 12, 23, 13, 3, 14, 4, 24, 5, 25, 15, 26, 16, 6, 17, 7, 27, 8, 28, 18, 29, 19, 9, 30, 31
            ])
    }

}

extension SHACryptScheme where Hash == SHA512 {
    static var sha512: Self {
        Self(
            captureType: "password-crypt-sha512", prefix: "$6$",
            order: [
                42, 21, 0, 1, 43, 22, 23, 2, 44, 45, 24, 3, 4, 46, 25, 26, 5, 47, 48, 27, 6, 7, 49, 28, 29, 8, 50, 51, 30, 9, 10, 52,
                31, 32, 11, 53, 54, 33, 12, 13, 55, 34, 35, 14, 56, 57, 36, 15, 16, 58, 37, 38, 17, 59, 60, 39, 18, 19, 61, 40, 41,
                20, 62, 63
            ])
    }
}

extension SHACryptScheme {
    var summary: String { "SHA-crypt: \(prefix)[rounds=N$]salt$hash" }

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        guard hash.value.hasPrefix(prefix) else { return nil }
        var parts = hash.value.dropFirst(prefix.count).split(separator: "$", omittingEmptySubsequences: false)
        var rounds = 5000
        if let first = parts.first, first.hasPrefix("rounds=") {
            guard let written = Int(first.dropFirst("rounds=".count)), written > 0 else { return nil }
            rounds = min(max(written, 1000), 999_999_999)
            parts.removeFirst()
        }
        guard parts.count == 2 else { return nil }
        let salt = Array(parts[0].utf8.prefix(16))
        let made = HashText.hash64(digest(Array(password.utf8), salt: salt, rounds: rounds).permuted(by: order))
        return HashText.equal(made, Array(parts[1].utf8))
    }

    private func hash(_ parts: [UInt8]...) -> [UInt8] {
        var hasher = Hash()
        for part in parts { hasher.update(data: part) }
        return Array(hasher.finalize())
    }

    /// The digest of `password` after `rounds` rounds (the steps of Drepper's specification).
    func digest(_ password: [UInt8], salt: [UInt8], rounds: Int) -> [UInt8] {
        let size = Hash.Digest.byteCount
        let b = hash(password, salt, password)
        var a = Hash()
        a.update(data: password)
        a.update(data: salt)
        a.update(data: b.repeated(to: password.count))
        var length = password.count
        while length > 0 {
            a.update(data: length & 1 == 1 ? b : password)
            length >>= 1
        }
        var c = Array(a.finalize())
        var dp = Hash()
        for _ in 0..<password.count { dp.update(data: password) }
        let p = Array(dp.finalize()).repeated(to: password.count)
        var ds = Hash()
        for _ in 0..<(16 + Int(c[0])) { ds.update(data: salt) }
        let s = Array(ds.finalize()).repeated(to: salt.count)
        for round in 0..<rounds {
            var next = Hash()
            next.update(data: round & 1 == 1 ? p : c)
            if round % 3 != 0 { next.update(data: s) }
            if round % 7 != 0 { next.update(data: p) }
            next.update(data: round & 1 == 1 ? c : p)
            c = Array(next.finalize())
        }
        precondition(c.count == size)
        return c
    }
}

extension Array where Element == UInt8 {
    /// This digest repeated, then cut, to `count` bytes.
    func repeated(to count: Int) -> [UInt8] {
        guard !isEmpty else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count { out.append(contentsOf: prefix(count - out.count)) }
        return out
    }

    /// The bytes at `order`'s indices, in its order.
    func permuted(by order: [Int]) -> [UInt8] { order.map { self[$0] } }
}
