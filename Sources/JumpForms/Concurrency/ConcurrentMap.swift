import Dispatch

/// `map` over all cores for independent, CPU-bound items (decoding locale files, linting
/// catalogs, checking locales). Results keep the order of the input; small inputs run on the
/// calling thread. Shared by the package's modules, not part of the public API.
package enum ConcurrentMap {
    package static func map<Element: Sendable, Result: Sendable>(_ items: [Element], _ transform: @Sendable (Element) -> Result) -> [Result] {
        if items.count < 2 { return items.map(transform) }
        let results = ResultSlots<Result>(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            results.set(index, transform(items[index]))
        }
        return results.values
    }
}

/// One slot per index, each written by exactly one iteration of `concurrentPerform` and read
/// only after it returns: no two threads touch the same slot.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let buffer: UnsafeMutablePointer<Value?>
    private let count: Int

    init(count: Int) {
        self.count = count
        buffer = .allocate(capacity: max(count, 1))
        buffer.initialize(repeating: nil, count: count)
    }

    deinit {
        buffer.deinitialize(count: count)
        buffer.deallocate()
    }

    /// Writes through the raw buffer: no access to a stored array, so no exclusivity check
    /// between threads writing different slots.
    func set(_ index: Int, _ value: Value) {
        buffer[index] = value
    }

    var values: [Value] { (0..<count).map { buffer[$0]! } }
}
