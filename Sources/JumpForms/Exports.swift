// `import JumpForms` brings the diagnostics and localization modules it is built on.
@_exported import JumpDiagnostics
@_exported import JumpLocalization
