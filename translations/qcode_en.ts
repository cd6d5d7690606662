<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>MarkdownRenderer</name>
    <message numerus="yes">
        <source>… %n more line(s) not shown here; Copy copies them all</source>
        <translation>
            <numerusform>… %n more line not shown here; Copy copies it all</numerusform>
            <numerusform>… %n more lines not shown here; Copy copies them all</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more character(s) not shown here</source>
        <translation>
            <numerusform>… %n more character not shown here</numerusform>
            <numerusform>… %n more characters not shown here</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MessageErrors</name>
    <message numerus="yes">
        <source>The provider failed %n time(s) in a row, so qcode stopped trying (last error: %1). Try again later or choose another model.</source>
        <translation>
            <numerusform>The provider failed once, so qcode stopped trying (last error: %1). Try again later or choose another model.</numerusform>
            <numerusform>The provider failed %n times in a row, so qcode stopped trying (last error: %1). Try again later or choose another model.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PermissionDescription</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Edit %n files</source>
        <translation>
            <numerusform>Edit %n file</numerusform>
            <numerusform>Edit %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The agent repeated the same call %n times (doom loop)</source>
        <translation>
            <numerusform>The agent repeated the same call %n time (doom loop)</numerusform>
            <numerusform>The agent repeated the same call %n times (doom loop)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> The same holds for the other %n pattern(s).</source>
        <translation>
            <numerusform> The same holds for the other pattern.</numerusform>
            <numerusform> The same holds for the other %n patterns.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProviderError</name>
    <message numerus="yes">
        <source>The provider&apos;s rate limit was reached (%1). qcode will try again in %n second(s).</source>
        <translation>
            <numerusform>The provider&apos;s rate limit was reached (%1). qcode will try again in %n second.</numerusform>
            <numerusform>The provider&apos;s rate limit was reached (%1). qcode will try again in %n seconds.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RelativeTime</name>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n min ago</numerusform>
            <numerusform>%n min ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n h ago</numerusform>
            <numerusform>%n h ago</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionIdLookup</name>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 is the beginning of %n session id(s); give more of the id:</source>
        <translation>
            <numerusform>%1 is the beginning of %n session id; give more of the id:</numerusform>
            <numerusform>%1 is the beginning of %n session ids; give more of the id:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionMarkdown</name>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… %n more line</numerusform>
            <numerusform>… %n more lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ToolPresentation</name>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Patch %n file(s)</source>
        <translation>
            <numerusform>Patch %n file</numerusform>
            <numerusform>Patch %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>first %n file(s)</source>
        <translation>
            <numerusform>first %n file</numerusform>
            <numerusform>first %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n done</source>
        <translation>
            <numerusform>%1 of %n done</numerusform>
            <numerusform>%1 of %n done</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Ask %n question(s)</source>
        <translation>
            <numerusform>Ask %n question</numerusform>
            <numerusform>Ask %n questions</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::CompatibleProviderForm</name>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation>
            <numerusform>Connected: %n model.</numerusform>
            <numerusform>Connected: %n models.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::ConfigErrorBanner</name>
    <message numerus="yes">
        <source>… and %n more.</source>
        <translation>
            <numerusform>… and %n more.</numerusform>
            <numerusform>… and %n more.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::ConnectionTester</name>
    <message numerus="yes">
        <source>%1 did not answer within %n second(s).</source>
        <translation>
            <numerusform>%1 did not answer within %n second.</numerusform>
            <numerusform>%1 did not answer within %n seconds.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::DiffView</name>
    <message numerus="yes">
        <source>+%1 −%2 in %n file(s)</source>
        <translation>
            <numerusform>+%1 −%2 in %n file</numerusform>
            <numerusform>+%1 −%2 in %n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This diff has %n line(s); it is not shown until you ask for it.</source>
        <translation>
            <numerusform>This diff has %n line; it is not shown until you ask for it.</numerusform>
            <numerusform>This diff has %n lines; it is not shown until you ask for it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::LocalServersBox</name>
    <message numerus="yes">
        <source>%1 at %2 — %n model(s)</source>
        <translation>
            <numerusform>%1 at %2 — %n model</numerusform>
            <numerusform>%1 at %2 — %n models</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::NoteWidget</name>
    <message numerus="yes">
        <source>Changed %n file(s): %1</source>
        <translation>
            <numerusform>Changed %n file: %1</numerusform>
            <numerusform>Changed %n files: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::OutputView</name>
    <message numerus="yes">
        <source>… %n earlier line(s) not shown</source>
        <translation>
            <numerusform>… %n earlier line not shown</numerusform>
            <numerusform>… %n earlier lines not shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… %n more line not shown</numerusform>
            <numerusform>… %n more lines not shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n earlier line(s)</source>
        <translation>
            <numerusform>+%n earlier line</numerusform>
            <numerusform>+%n earlier lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n line</numerusform>
            <numerusform>+%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::PermissionsPage</name>
    <message numerus="yes">
        <source>Custom rules (%n pattern(s))</source>
        <translation>
            <numerusform>Custom rules (%n pattern)</numerusform>
            <numerusform>Custom rules (%n patterns)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::PromptLoop</name>
    <message numerus="yes">
        <source>The conversation still does not fit the model&apos;s context after %n compaction(s): the system prompt, instructions and tools alone may be too large for this model. Choose a model with a larger context, or remove instruction files or tools.</source>
        <translation>
            <numerusform>The conversation still does not fit the model&apos;s context after a compaction: the system prompt, instructions and tools alone may be too large for this model. Choose a model with a larger context, or remove instruction files or tools.</numerusform>
            <numerusform>The conversation still does not fit the model&apos;s context after %n compactions: the system prompt, instructions and tools alone may be too large for this model. Choose a model with a larger context, or remove instruction files or tools.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::RetryBanner</name>
    <message numerus="yes">
        <source>%1. Retrying in %n s (attempt %2)…</source>
        <translation>
            <numerusform>%1. Retrying in %n s (attempt %2)…</numerusform>
            <numerusform>%1. Retrying in %n s (attempt %2)…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::RevertBanner</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 and %n more</numerusform>
            <numerusform>%1 and %n more</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n file(s): %1.</source>
        <translation>
            <numerusform>Restored %n file: %1.</numerusform>
            <numerusform>Restored %n files: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undid %n message(s). %1 They are removed for good when you send the next prompt.</source>
        <translation>
            <numerusform>Undid %n message. %1 It is removed for good when you send the next prompt.</numerusform>
            <numerusform>Undid %n messages. %1 They are removed for good when you send the next prompt.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::SessionSidebar</name>
    <message numerus="yes">
        <source>Its messages and its %n subagent session(s) are deleted too. This cannot be undone.</source>
        <translation>
            <numerusform>Its messages and its %n subagent session are deleted too. This cannot be undone.</numerusform>
            <numerusform>Its messages and its %n subagent sessions are deleted too. This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::UserTextWidget</name>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n line</numerusform>
            <numerusform>+%n lines</numerusform>
        </translation>
    </message>
</context>
</TS>
