/// Answers files for the example project's forms, shared by the CLI tests that register.
public enum ExampleAnswers {
    /// Ana's registration (`register --answers`): every field the registration form requires.
    public static let anaRegistration = """
        emailAddress: ana@example.com
        displayName: ana_r
        firstName: Ana
        lastName: Ruiz
        newPassword: correct horse battery
        newPasswordConfirm: correct horse battery
        """
}
