import JumpFormsCLI

@main
enum JumpFormsMain {
    static func main() async {
        await JumpFormsCommand.runMain()
    }
}
