#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles

/// The two builds of a libFuzzer target (fuzz-loader, fuzz-icu; scripts/fuzz.sh). Built with
/// `-sanitize=fuzzer -D FUZZING`, the target's entry point hands control to libFuzzer
/// (`runDriver`); built plainly, it replays the inputs named on its command line (`replay`),
/// so a crash reproduces without the fuzzer.
package enum FuzzTarget {
    /// The replay tool: `testOneInput` once on every file named on the command line, or on
    /// every file in a folder named. Exits with status 2 when no path is given or a file
    /// cannot be read.
    package static func replay(tool: String, _ testOneInput: (UnsafeBufferPointer<UInt8>) -> Void) {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty {
            print("usage: \(tool) FILE-OR-FOLDER...  (replays inputs through LLVMFuzzerTestOneInput)")
            exit(2)
        }
        var count = 0
        for path in paths {
            for file in inputFiles(path) {
                guard let bytes = (try? FileReader.read(file).get()) else {
                    printError("\(tool): cannot read \(file)\n")
                    exit(2)
                }
                bytes.withUnsafeBufferPointer { testOneInput($0) }
                count += 1
            }
        }
        print("\(tool): replayed \(count) inputs without a crash")
    }

    /// The inputs a path names: the file itself, or the regular files of a folder (sorted, not
    /// recursive, hidden ones left out).
    static func inputFiles(_ path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [path] }
        guard (info.st_mode & S_IFMT) == S_IFDIR, let handle = opendir(path) else { return [path] }
        defer { closedir(handle) }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let child = path + "/" + name
            var childInfo = stat()
            if stat(child, &childInfo) == 0, (childInfo.st_mode & S_IFMT) == S_IFREG { files.append(child) }
        }
        return files.sorted()
    }

    #if FUZZING
        /// The fuzzing build's `main`: the command line and `testOneInput` (the target's
        /// `LLVMFuzzerTestOneInput`) handed to libFuzzer's driver, which runs the campaign.
        package static func runDriver(
            _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
            _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
        ) -> CInt {
            var argc = argc
            var argv = argv
            return LLVMFuzzerRunDriver(&argc, &argv, testOneInput)
        }
    #endif
}

#if FUZZING
    // `@_extern(c)` needs `-enable-experimental-feature Extern` (scripts/fuzz.sh passes it).
    @_extern(c, "LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt
#endif
