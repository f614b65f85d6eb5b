import JumpForms
import Testing

@Suite struct XMLEscapeTests {
    @Test func textEscapesMarkupOnly() {
        #expect(XMLEscape.text("a < b && c > \"d\" 'e'") == "a &lt; b &amp;&amp; c &gt; \"d\" 'e'")
    }

    @Test func attributeEscapesDoubleQuotesToo() {
        #expect(XMLEscape.attribute("say \"hi\" & <go> 'now'") == "say &quot;hi&quot; &amp; &lt;go&gt; 'now'")
        // Without replacingInvalid, every other character is kept as it is.
        #expect(XMLEscape.attribute("\u{1}\u{FFFE}é") == "\u{1}\u{FFFE}é")
    }

    @Test func charactersXMLCannotHoldBecomeReplacementCharacters() {
        let text = "a\u{0}b\u{1F}c\td\ne\rf\u{FFFE}\u{FFFF}\u{FFFD}\u{7F}\u{10FFFF}"
        #expect(
            XMLEscape.attribute(text, replacingInvalid: true)
                == "a\u{FFFD}b\u{FFFD}c\td\ne\rf\u{FFFD}\u{FFFD}\u{FFFD}\u{7F}\u{10FFFF}")
        #expect(XMLEscape.attribute("<\u{8}>", replacingInvalid: true) == "&lt;\u{FFFD}&gt;")
    }
}

@Suite struct ReplacingAllTests {
    @Test func replacesEveryOccurrenceLeftToRightWithoutOverlaps() {
        #expect("a-b--c".replacingAll("-", with: "_") == "a_b__c")
        #expect("aaaa".replacingAll("aa", with: "b") == "bb")
        #expect("aaa".replacingAll("aa", with: "b") == "ba")
        #expect("{value} of {value}".replacingAll("{value}", with: "{value, number}") == "{value, number} of {value, number}")
        #expect("x|y".replacingAll("|", with: "\\|") == "x\\|y")
    }

    @Test func anEmptyOrAbsentTargetLeavesTheText() {
        #expect("abc".replacingAll("", with: "x") == "abc")
        #expect("abc".replacingAll("d", with: "x") == "abc")
        #expect("".replacingAll("a", with: "x") == "")
    }

    @Test func occurrencesAreWholeCharacters() {
        // `e` and a combining acute accent make one character, which is not an `e`.
        #expect("e\u{301}e".replacingAll("e", with: "x") == "e\u{301}x")
    }
}
