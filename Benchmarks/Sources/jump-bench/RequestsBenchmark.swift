import JumpCapture
import JumpForms
import JumpFormsLoader

// MARK: - Request builder throughput

struct RequestResult {
    var form: String
    var fields: Int
    var parameters: Int
    var bodyBytes: Int
    /// Requests built per second, one figure per timed round.
    var rounds: Stats
}

/// `RequestBuilder.register` over a fixed set of valid values: the client configuration and
/// the flow are loaded once and the builder made once (its forms interpreted once); each
/// request is validated by the rule engine, built, and its body encoded.
func benchmarkRequests(configPath: String, formName: String?, rounds: Int, roundMilliseconds: Double) throws(BenchError) -> RequestResult {
    let project = ProjectLoader().load(paths: [configPath])
    guard var config = project.config, let loaded = project.primaryFlow else {
        throw .message(
            "no client configuration and flow loaded from \(configPath): \(project.diagnostics.map(\.description).joined(separator: "; "))")
    }
    if let formName { config.captureTraditionalRegistrationFormName.value = formName }
    guard let capture = ServerURL("https://example.us.janraincapture.com") else { throw .message("bad server URL") }
    let builder = RequestBuilder(
        config: config, flow: loaded.flow, localizer: loaded.localizer(),
        locale: config.captureLocale.value, capture: capture)
    let form: FormModel
    do {
        form = try builder.form(for: .register)
    } catch {
        throw .message("cannot build the registration form: \(error)")
    }
    let today = CivilDate(year: 2025, month: 6, day: 15)!
    let secret = RefreshSecret("0123456789abcdef0123456789abcdef01234567")!
    let engine = RuleEngine(form: form, today: today)
    let valueSets = makeValueSets(form).filter { engine.validate($0).isValid }
    guard !valueSets.isEmpty else { throw .message("no valid value set for form \(form.name)") }
    var sample: CaptureRequest
    do {
        sample = try builder.register(valueSets[0], refreshSecret: secret, today: today)
    } catch {
        throw .message("the values do not build a request: \(error)")
    }
    var perSecond: [Double] = []
    // One untimed warm-up round.
    for round in 0...rounds {
        var built = 0
        var bytes = 0
        let start = nowMilliseconds()
        var elapsed = 0.0
        repeat {
            for values in valueSets {
                do {
                    sample = try builder.register(values, refreshSecret: secret, today: today)
                } catch {
                    throw .message("building a request failed: \(error)")
                }
                bytes &+= sample.body.count
                built += 1
            }
            elapsed = nowMilliseconds() - start
        } while elapsed < roundMilliseconds
        benchmarkSink &+= bytes
        if round > 0 { perSecond.append(Double(built) / (elapsed / 1000)) }
    }
    return RequestResult(
        form: form.name, fields: form.fields.count, parameters: sample.parameters.count,
        bodyBytes: sample.body.count, rounds: Stats(perSecond))
}

func printRequests(_ result: RequestResult) {
    guard outputFormat == .text else {
        print(
            JSONValue.object([
                ("benchmark", "requests"), ("form", .string(result.form)), ("fields", .integer(result.fields)),
                ("parameters", .integer(result.parameters)), ("bodyBytes", .integer(result.bodyBytes)),
                ("requestsPerSecond", result.rounds.rateJSON)
            ]).serialized())
        return
    }
    print(
        """
        request builder: register with form \(result.form), \(result.fields) fields -> \(result.parameters) parameters, \(result.bodyBytes)-byte \
        body
        """
    )
    print(
        "  requests/s   best \(grouped(Int(result.rounds.worst)))  median \(grouped(Int(result.rounds.median)))  worst \(grouped(Int(result.rounds.best)))  (\(result.rounds.samples.count) rounds)"
    )
}
