import JumpForms
import Testing

/// Runs every rule's documented examples through the real engine: the same examples the docs
/// show.
@Suite struct RuleEngineTests {
    static let checkedRules = RuleKind.allCases.filter { !$0.examples.isEmpty }

    /// A one-field form (plus `other` for cross-field rules) carrying the example's rule.
    static func form(for kind: RuleKind, _ example: RuleExample, clientSide: Bool = true) throws -> FormModel {
        let here = SourceLocation(file: "example.yaml", line: 1, column: 1)
        let options = example.options.map { value in
            value.hasPrefix("-")
                ? FieldOption(value: Located(String(value.dropFirst()), at: here), label: Located("o", at: here), disabled: true, location: here)
                : FieldOption(value: Located(value, at: here), label: Located("o", at: here), location: here)
        }
        let rule = ValidationRule(
            kind: kind, value: example.value, message: Located("m.\(kind.rawValue)", at: here),
            clientSide: clientSide, location: here)
        let field = FieldDefinition(
            name: "field", location: here, type: Located(example.field, at: here),
            options: options, validation: [rule])
        let other = FieldDefinition(name: "other", location: here, type: Located(.text, at: here))
        let flow = Flow(
            path: "example.yaml", name: Located("example", at: here), version: Located("1", at: here),
            defaultLocale: Located(LocaleTag("en-US")!, at: here), localesDirectory: Located("locales", at: here),
            fields: [field, other],
            forms: [FormDefinition(name: "form", location: here, fields: [Located("field", at: here), Located("other", at: here)])],
            providers: [])
        let localizer = Localizer(defaultLocale: LocaleTag("en-US")!, catalogs: [])
        return try FormInterpreter(flow: flow, localizer: localizer).model(form: "form", locale: LocaleTag("en-US")!)
    }

    @Test(arguments: checkedRules)
    func documentedExamplesHold(_ kind: RuleKind) throws {
        for example in kind.examples {
            let engine = RuleEngine(form: try Self.form(for: kind, example), today: RuleExample.today)
            if kind.isServerOnly {
                // The client cannot judge them: every input passes here and is reported as left
                // to the server (JumpCaptureServerTests runs these examples against the server).
                for input in example.valid + example.invalid {
                    let report = engine.validate(["field": input.value, "other": input.other ?? ""])
                    #expect(report.violations.isEmpty)
                    #expect(report.deferred == [DeferredRule(field: "field", rule: kind, reason: .serverOnly)])
                }
                continue
            }
            for input in example.valid {
                let violations = engine.validate(["field": input.value, "other": input.other ?? ""]).violations
                #expect(violations.isEmpty, "\(kind.rawValue) should accept '\(input.value)' (other: \(input.other ?? "-"))")
            }
            for input in example.invalid {
                let violations = engine.validate(["field": input.value, "other": input.other ?? ""]).violations
                #expect(violations.map(\.rule) == [kind], "\(kind.rawValue) should refuse '\(input.value)' (other: \(input.other ?? "-"))")
                #expect(violations.first?.messageKey == "m.\(kind.rawValue)")
            }
        }
    }

    @Test func emptyOptionalFieldSkipsAllButRequiredAndAlongWith() throws {
        let example = RuleExample(field: .text, value: .integer(3), valid: [], invalid: [])
        let engine = RuleEngine(form: try Self.form(for: .minLength, example), today: RuleExample.today)
        #expect(engine.validate(["field": "", "other": ""]).isValid)
        #expect(engine.validate(["field": "   ", "other": ""]).isValid)
        #expect(!engine.validate(["field": "ab", "other": ""]).isValid)
    }

    @Test func uniqueAndClientSideFalseAreReportedAsDeferred() throws {
        let unique = RuleExample(field: .email, valid: [], invalid: [])
        let engine = RuleEngine(form: try Self.form(for: .unique, unique), today: RuleExample.today)
        let report = engine.validate(["field": "ana@example.com"])
        #expect(report.isValid)
        #expect(report.deferred == [DeferredRule(field: "field", rule: .unique, reason: .serverOnly)])
    }

    @Test func clientSideFalseRulesAreLeftToTheServerAndRunThere() throws {
        let example = RuleExample(field: .password, value: .integer(8), valid: [], invalid: [])
        let form = try Self.form(for: .minLength, example, clientSide: false)
        let client = RuleEngine(form: form, today: RuleExample.today).validate(["field": "short"])
        #expect(client.isValid)
        #expect(client.deferred == [DeferredRule(field: "field", rule: .minLength, reason: .clientSideDisabled)])
        let server = RuleEngine(form: form, today: RuleExample.today, side: .server).validate(["field": "short"])
        #expect(server.violations.map(\.rule) == [.minLength])
        #expect(server.deferred.isEmpty)
    }

    @Test func violationsCarryFieldAndValueArguments() throws {
        let example = RuleExample(field: .password, value: .integer(8), valid: [], invalid: [])
        let engine = RuleEngine(form: try Self.form(for: .minLength, example), today: RuleExample.today)
        let violation = try #require(engine.validate(["field": "short"]).violations.first)
        #expect(violation.arguments["field"] == .string("field"))
        #expect(violation.arguments["value"] == .int(8))
    }

    @Test func malformedDatesAndCheckboxesAreInputErrors() throws {
        let date = RuleExample(field: .dateselect, value: .integer(13), valid: [], invalid: [])
        let dateEngine = RuleEngine(form: try Self.form(for: .minYears, date), today: RuleExample.today)
        for bad in ["2012-13-01", "12/06/2012", "2012-6-1"] {
            let violations = dateEngine.validate(["field": bad]).violations
            #expect(violations.map(\.messageKey) == [RuleEngine.InputMessage.invalidDate], "\(bad)")
            #expect(violations.first?.rule == nil)
        }
        // The right shape, but no such day: its own message.
        for missing in ["2012-02-30", "2013-02-29", "2012-04-31"] {
            let violations = dateEngine.validate(["field": missing]).violations
            #expect(violations.map(\.messageKey) == [RuleEngine.InputMessage.nonexistentDate], "\(missing)")
        }
        let box = RuleExample(field: .checkbox, valid: [], invalid: [])
        let boxEngine = RuleEngine(form: try Self.form(for: .required, box), today: RuleExample.today)
        #expect(boxEngine.validate(["field": "yes"]).violations.map(\.messageKey) == [RuleEngine.InputMessage.invalidCheckbox])
        #expect(boxEngine.validate(["field": "true"]).isValid)
    }

    @Test func crossFieldRulesWaitWhenAsked() throws {
        let example = RuleExample(field: .password, value: .text("other"), valid: [], invalid: [])
        let engine = RuleEngine(form: try Self.form(for: .match, example), today: RuleExample.today)
        #expect(engine.validate(field: "field", in: ["field": "a", "other": "b"], crossField: false).isEmpty)
        #expect(engine.validate(field: "field", in: ["field": "a", "other": "b"]).count == 1)
    }
}
