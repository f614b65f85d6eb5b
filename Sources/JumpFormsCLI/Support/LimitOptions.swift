import ArgumentParser
import JumpFormsLoader

/// `--max-file-size`: the loader's limit on the size of one file.
struct LimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The largest file read, in bytes or with a K, M or G suffix (KiB, MiB, GiB); default 8M.",
            valueName: "size"))
    var maxFileSize: ByteCount?

    var limits: LoaderLimits {
        var limits = LoaderLimits.default
        if let maxFileSize { limits.maximumFileSize = maxFileSize.bytes }
        return limits
    }
}

/// A size given on the command line: `1048576`, `512K`, `16M`, `1G`.
struct ByteCount: ExpressibleByArgument {
    var bytes: Int

    init?(argument: String) {
        var digits = Substring(argument)
        var unit = 1
        switch argument.last?.uppercased() {
        case "K": unit = 1 << 10
        case "M": unit = 1 << 20
        case "G": unit = 1 << 30
        default: break
        }
        if unit > 1 { digits = digits.dropLast() }
        guard let count = Int(digits), count > 0 else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        self.bytes = bytes
    }
}
