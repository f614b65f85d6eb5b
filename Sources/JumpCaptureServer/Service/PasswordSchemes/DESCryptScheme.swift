/// `password-crypt-des`: traditional Unix crypt(3), 13 characters: two of salt, eleven of the
/// result of 25 DES encryptions of a zero block, keyed by the first 8 bytes of the password
/// (7 bits of each), with the salt's 12 bits swapping pairs of the expansion table.
struct DESCryptScheme: PasswordHashScheme {
    let captureType = "password-crypt-des"
    let summary = "traditional DES crypt(3): 2 characters of salt, 11 of hash"

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let value = Array(hash.value.utf8)
        guard value.count == 13, value.allSatisfy({ HashText.crypt64Value($0) != nil }) else { return nil }
        return HashText.equal(Self.crypt(Array(password.utf8), salt: Array(value[0..<2])), value)
    }

    static func crypt(_ password: [UInt8], salt: [UInt8]) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 64)
        for (index, byte) in password.prefix(8).enumerated() {
            for bit in 0..<7 { key[8 * index + bit] = (byte >> (6 - bit)) & 1 }
        }
        var expansion = DES.expansion
        for (index, character) in salt.enumerated() {
            let value = HashText.crypt64Value(character) ?? 0
            for bit in 0..<6 where (value >> bit) & 1 == 1 {
                expansion.swapAt(6 * index + bit, 6 * index + bit + 24)
            }
        }
        let keys = DES.roundKeys(key)
        var block = [UInt8](repeating: 0, count: 64)
        for _ in 0..<25 { block = DES.encrypt(block, keys: keys, expansion: expansion) }
        block += [0, 0]
        var out = Array(salt)
        for group in 0..<11 {
            var value = 0
            for bit in 0..<6 { value = value << 1 | Int(block[6 * group + bit]) }
            out.append(HashText.crypt64[value])
        }
        return out
    }
}

/// The Data Encryption Standard (FIPS 46-3), one bit per array element: slow, and only for
/// checking DES crypt(3) hashes. Tables number bits from 1, as the standard does.
enum DES {
    static let initialPermutation = [
        58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4, 62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
        57, 49, 41, 33, 25, 17, 9, 1, 59, 51, 43, 35, 27, 19, 11, 3, 61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7
    ]
    static let expansion = [
        32, 1, 2, 3, 4, 5, 4, 5, 6, 7, 8, 9, 8, 9, 10, 11, 12, 13, 12, 13, 14, 15, 16, 17,
        16, 17, 18, 19, 20, 21, 20, 21, 22, 23, 24, 25, 24, 25, 26, 27, 28, 29, 28, 29, 30, 31, 32, 1
    ]
    static let permutation = [16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10, 2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25]
    static let permutedChoice1 = [
        57, 49, 41, 33, 25, 17, 9, 1, 58, 50, 42, 34, 26, 18, 10, 2, 59, 51, 43, 35, 27, 19, 11, 3, 60, 52, 44, 36,
        63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6, 61, 53, 45, 37, 29, 21, 13, 5, 28, 20, 12, 4
    ]
    static let permutedChoice2 = [
        14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
        41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32
    ]
    static let shifts = [1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 1]
    static let substitution: [[UInt8]] = [
        [
            14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7, 0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
            4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0, 15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13
        ],
        [
            15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10, 3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
            0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15, 13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9
        ],
        [
            10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8, 13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
            13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7, 1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12
        ],
        [
            7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15, 13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
            10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4, 3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14
        ],
        [
            2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9, 14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
            4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14, 11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3
        ],
        [
            12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11, 10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
            9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6, 4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13
        ],
        [
            4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1, 13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
            1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2, 6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12
        ],
        [
            13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7, 1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
            7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8, 2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11
        ]
    ]

    /// The 16 round keys (48 bits each) of a 64-bit key.
    static func roundKeys(_ key: [UInt8]) -> [[UInt8]] {
        var halves = permutedChoice1.map { key[$0 - 1] }
        return shifts.map { shift in
            let left = halves[0..<28], right = halves[28..<56]
            halves = Array(left.dropFirst(shift) + left.prefix(shift) + right.dropFirst(shift) + right.prefix(shift))
            return permutedChoice2.map { halves[$0 - 1] }
        }
    }

    /// One encryption of a 64-bit block, with the given expansion table (crypt(3) perturbs it).
    static func encrypt(_ block: [UInt8], keys: [[UInt8]], expansion: [Int]) -> [UInt8] {
        let permuted = initialPermutation.map { block[$0 - 1] }
        var left = Array(permuted[0..<32]), right = Array(permuted[32..<64])
        var mixed = [UInt8](repeating: 0, count: 48)
        var substituted = [UInt8](repeating: 0, count: 32)
        for key in keys {
            for bit in 0..<48 { mixed[bit] = right[expansion[bit] - 1] ^ key[bit] }
            for box in 0..<8 {
                let six = mixed[(6 * box)..<(6 * box + 6)].map(Int.init)
                let row = six[0] << 1 | six[5]
                let column = six[1] << 3 | six[2] << 2 | six[3] << 1 | six[4]
                let value = substitution[box][row * 16 + column]
                for bit in 0..<4 { substituted[4 * box + bit] = (value >> (3 - bit)) & 1 }
            }
            let next = (0..<32).map { left[$0] ^ substituted[permutation[$0] - 1] }
            left = right
            right = next
        }
        let preOutput = right + left
        var out = [UInt8](repeating: 0, count: 64)
        for (index, source) in initialPermutation.enumerated() { out[source - 1] = preOutput[index] }
        return out
    }
}
