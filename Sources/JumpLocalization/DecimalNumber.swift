import JumpDiagnostics

/// An exact decimal: `digits` × 10^-`scale`, with at least one digit before the point.
///
/// Numbers are formatted from this exact form, as ICU formats its decimal quantities: no
/// binary floating point is involved, so `0.1`, `1e-7` and 40-digit amounts keep every digit.
struct DecimalNumber: Sendable, Hashable {
    var negative: Bool
    /// Most significant first; at least `scale + 1` digits, no superfluous leading zeros.
    var digits: [UInt8]
    /// How many of `digits` follow the decimal point.
    var scale: Int

    /// The longest plain expansion accepted (`1e999999` is refused, not expanded).
    static let maximumDigits = 1_000

    init(negative: Bool, digits: [UInt8], scale: Int) {
        self.negative = negative
        self.digits = digits
        self.scale = scale
        normalizeLeadingZeros()
    }

    init(_ value: Int) {
        var digits: [UInt8] = []
        var magnitude = value.magnitude
        repeat {
            digits.append(UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        self.init(negative: value < 0, digits: digits.reversed(), scale: 0)
    }

    /// Reads `-`? digits [`.` digits] [(`e`|`E`) [`+`|`-`] digits].
    init?(_ text: String) {
        var iterator = text.unicodeScalars.makeIterator()
        var current = iterator.next()
        var negative = false
        if current == "-" {
            negative = true
            current = iterator.next()
        }
        var digits: [UInt8] = []
        while let c = current, ("0"..."9").contains(c) {
            digits.append(UInt8(c.value - 0x30))
            current = iterator.next()
        }
        guard !digits.isEmpty else { return nil }
        var scale = 0
        if current == "." {
            current = iterator.next()
            while let c = current, ("0"..."9").contains(c) {
                digits.append(UInt8(c.value - 0x30))
                scale += 1
                current = iterator.next()
            }
            guard scale > 0 else { return nil }
        }
        if current == "e" || current == "E" {
            current = iterator.next()
            var exponentNegative = false
            if current == "+" || current == "-" {
                exponentNegative = current == "-"
                current = iterator.next()
            }
            var exponent = 0
            var exponentDigits = 0
            while let c = current, ("0"..."9").contains(c) {
                exponent = exponent * 10 + Int(c.value - 0x30)
                exponentDigits += 1
                guard exponent <= Self.maximumDigits else { return nil }
                current = iterator.next()
            }
            guard exponentDigits > 0 else { return nil }
            scale += exponentNegative ? exponent : -exponent
        }
        guard current == nil else { return nil }
        if scale < 0 {
            digits.append(contentsOf: repeatElement(0, count: -scale))
            scale = 0
        }
        guard digits.count <= Self.maximumDigits * 2 else { return nil }
        self.init(negative: negative, digits: digits, scale: scale)
    }

    private mutating func normalizeLeadingZeros() {
        if digits.count < scale + 1 {
            digits.insert(contentsOf: repeatElement(0, count: scale + 1 - digits.count), at: 0)
        }
        let removable = digits.prefix(digits.count - scale - 1).prefix { $0 == 0 }.count
        if removable > 0 { digits.removeFirst(removable) }
        if isZero { negative = false }
    }

    var isZero: Bool { digits.allSatisfy { $0 == 0 } }

    /// Without trailing fraction zeros: equal values compare equal.
    var normalized: DecimalNumber {
        var copy = self
        while copy.scale > 0 && copy.digits.last == 0 {
            copy.digits.removeLast()
            copy.scale -= 1
        }
        return copy
    }

    /// Plain notation: `-12.50`.
    var plainText: String {
        var text = String.UnicodeScalarView()
        if negative { text.append("-") }
        for (position, digit) in digits.enumerated() {
            if position == digits.count - scale { text.append(".") }
            text.append(Unicode.Scalar(UInt8(0x30) + digit))
        }
        return String(text)
    }

    var negated: DecimalNumber {
        var copy = self
        if !isZero { copy.negative.toggle() }
        return copy
    }

    var absolute: DecimalNumber {
        var copy = self
        copy.negative = false
        return copy
    }

    /// The power of ten of the most significant non-zero digit (`1234.5` -> 3, `0.05` -> -2);
    /// 0 for zero.
    var magnitude: Int {
        guard let first = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
        return digits.count - 1 - scale - first
    }

    /// The number of digits before the decimal point (`0.5` has one).
    var integerDigitCount: Int { digits.count - scale }

    /// The digit of 10^`power` (0 outside the stored digits).
    func digit(atPower power: Int) -> UInt8 {
        let index = digits.count - 1 - scale - power
        return digits.indices.contains(index) ? digits[index] : 0
    }

    /// Multiplied by 10^`power`.
    func shifted(by power: Int) -> DecimalNumber {
        guard power != 0 else { return self }
        var copy = self
        copy.scale -= power
        if copy.scale < 0 {
            copy.digits.append(contentsOf: repeatElement(0, count: -copy.scale))
            copy.scale = 0
        }
        copy.normalizeLeadingZeros()
        return copy
    }

    /// At least `count` fraction digits (trailing zeros added).
    func withMinimumFraction(_ count: Int) -> DecimalNumber {
        guard count > scale else { return self }
        var copy = self
        copy.digits.append(contentsOf: repeatElement(0, count: count - scale))
        copy.scale = count
        return copy
    }

    /// Rounded to a multiple of 10^`power` (`power` -2 keeps two fraction digits).
    func rounded(toPower power: Int, _ mode: RoundingMode) -> DecimalNumber {
        // The lowest stored power is -scale: nothing to drop.
        guard -scale < power else { return self }
        var all = digits
        let dropCount = scale + power
        if all.count < dropCount + 1 { all.insert(contentsOf: repeatElement(0, count: dropCount + 1 - all.count), at: 0) }
        var kept = Array(all.prefix(all.count - dropCount))
        let dropped = all.suffix(dropCount)
        if mode.roundsUp(lastKept: kept.last ?? 0, dropped: dropped, negative: negative) {
            kept = Self.add(kept, [1])
        }
        if power > 0 {
            kept.append(contentsOf: repeatElement(0, count: power))
            return DecimalNumber(negative: negative, digits: kept, scale: 0)
        }
        return DecimalNumber(negative: negative, digits: kept, scale: -power)
    }

    func adding(_ other: DecimalNumber) -> DecimalNumber {
        let scale = max(self.scale, other.scale)
        let a = self.digits + repeatElement(0, count: scale - self.scale)
        let b = other.digits + repeatElement(0, count: scale - other.scale)
        if negative == other.negative {
            return DecimalNumber(negative: negative, digits: Self.add(a, b), scale: scale)
        }
        if Self.compare(a, b) >= 0 {
            return DecimalNumber(negative: negative, digits: Self.subtract(a, b), scale: scale)
        }
        return DecimalNumber(negative: other.negative, digits: Self.subtract(b, a), scale: scale)
    }

    /// The product, exact.
    func multiplied(by other: DecimalNumber) -> DecimalNumber {
        var product = [Int](repeating: 0, count: digits.count + other.digits.count)
        for (i, a) in digits.reversed().enumerated() where a != 0 {
            for (j, b) in other.digits.reversed().enumerated() {
                product[i + j] += Int(a) * Int(b)
            }
        }
        var carry = 0
        for index in product.indices {
            let sum = product[index] + carry
            product[index] = sum % 10
            carry = sum / 10
        }
        while carry > 0 {
            product.append(carry % 10)
            carry /= 10
        }
        return DecimalNumber(negative: negative != other.negative, digits: product.reversed().map { UInt8($0) }, scale: scale + other.scale)
    }

    /// Rounded half-even to scale 0.
    var roundedHalfEven: DecimalNumber { rounded(toPower: 0, .halfEven) }

    /// The value as a Double (for display decisions only, never for digits).
    var approximateValue: Double {
        var value = 0.0
        for digit in digits.prefix(20) { value = value * 10 + Double(digit) }
        var exponent = digits.count - min(digits.count, 20) - scale
        while exponent > 0 { value *= 10; exponent -= 1 }
        while exponent < 0 { value /= 10; exponent += 1 }
        return negative ? -value : value
    }

    static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let a = a.drop { $0 == 0 }, b = b.drop { $0 == 0 }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
        return 0
    }

    /// Compares absolute values.
    static func compareMagnitudes(_ lhs: DecimalNumber, _ rhs: DecimalNumber) -> Int {
        let scale = max(lhs.scale, rhs.scale)
        return compare(lhs.digits + repeatElement(0, count: scale - lhs.scale), rhs.digits + repeatElement(0, count: scale - rhs.scale))
    }

    private static func add(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(max(a.count, b.count) + 1)
        var i = a.count - 1, j = b.count - 1
        var carry: UInt8 = 0
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? a[i] : 0) + (j >= 0 ? b[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `a - b` for `a >= b`.
    private static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(a.count)
        var i = a.count - 1, j = b.count - 1
        var borrow: Int = 0
        while i >= 0 {
            var difference = Int(a[i]) - (j >= 0 ? Int(b[j]) : 0) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            i -= 1
            j -= 1
        }
        return result.reversed()
    }
}

/// How dropped digits round, as ICU's `rounding-mode-*` skeleton stems name them.
enum RoundingMode: String, Sendable, Hashable, CaseIterable {
    case ceiling, floor, down, up
    case halfEven = "half-even", halfDown = "half-down", halfUp = "half-up"

    /// Whether the kept digits go up by one unit.
    func roundsUp(lastKept: UInt8, dropped: ArraySlice<UInt8>, negative: Bool) -> Bool {
        guard let first = dropped.first, dropped.contains(where: { $0 != 0 }) else { return false }
        let restNonZero = dropped.dropFirst().contains { $0 != 0 }
        switch self {
        case .up: return true
        case .down: return false
        case .ceiling: return !negative
        case .floor: return negative
        case .halfUp: return first >= 5
        case .halfDown: return first > 5 || (first == 5 && restNonZero)
        case .halfEven: return first > 5 || (first == 5 && (restNonZero || lastKept % 2 == 1))
        }
    }
}
