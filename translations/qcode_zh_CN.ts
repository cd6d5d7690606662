<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AgentConfig</name>
    <message>
        <source>true/false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a map</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: agent &quot;%2&quot;: &quot;%3&quot; %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be text, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be true or false, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a whole number of at least 1, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be written &quot;provider/model&quot;, such as &quot;anthropic/claude-sonnet-4-5&quot;; &quot;%1&quot; is not</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be &quot;primary&quot;, &quot;subagent&quot; or &quot;all&quot;, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a colour such as &quot;#FF5733&quot; or one of %1, not &quot;%2&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a map, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a map of tool names to true or false, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must map each tool to true or false; &quot;%1&quot; is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be &quot;allow&quot;, &quot;ask&quot;, &quot;deny&quot; or a map of them, not %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentRegistry</name>
    <message>
        <source>OPENCODE_PERMISSION is not valid JSON (%1); it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config: &quot;tools&quot; must be a map of tool names to true or false; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config: &quot;%1&quot; must be a map of agent names to their settings; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config: %1.%2 must be a map of settings; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the settings for the built-in agent &quot;%2&quot; are ignored except its permission rules.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the agent &quot;%2&quot; is skipped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config: &quot;default_agent&quot; must be an agent name; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default agent &quot;%1&quot; not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default agent &quot;%1&quot; is a subagent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default agent &quot;%1&quot; is hidden</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no primary visible agent found</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnthropicRequestBuilder</name>
    <message>
        <source>Anthropic models read JPEG, PNG, GIF and WebP images; &quot;%1&quot; is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic models cannot read &quot;%1&quot; (%2); attach an image, a PDF or text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no message left to send to Anthropic once empty text is removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic needs a thinking budget of at least %1 tokens; %2 was asked for.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Config</name>
    <message>
        <source>The config key &quot;%1&quot; must be a &quot;provider/model&quot; string; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config key &quot;%1&quot; must be a list of provider ids; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config entry provider.%1 must be an object; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config key &quot;provider&quot; must be an object; it is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConfigLoader</name>
    <message>
        <source>%1: cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the config file named by the environment does not exist</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConfigSubstitution</name>
    <message>
        <source>%1: bad file reference &quot;%2&quot;: %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>does not exist</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DataUrl</name>
    <message>
        <source>This is not a data URL: it does not start with &quot;data:&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data URL has no comma before its contents.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data URL&apos;s base64 contents are broken.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The data URL has a broken escape at character %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileReader</name>
    <message>
        <source>offset must be greater than or equal to 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limit must be greater than or equal to 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>filePath must name a file or directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: it is not a regular file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read binary file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File not found: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File not found: %1

Did you mean one of these?
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot list %1: permission denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too large to attach (%2 MB; the limit is %3 MB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Offset %1 is out of range for this file (%2 lines)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FrontMatter</name>
    <message>
        <source>%1:1: the front matter that starts here is never closed by a &quot;---&quot; line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:2: the front matter must be &quot;key: value&quot; lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not UTF-8 text</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GeminiRequestBuilder</name>
    <message>
        <source>Gemini takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no message left to send to Gemini once empty text is removed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JsoncParser</name>
    <message>
        <source>%1:%2:%3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a /* comment is never closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the configuration must be a JSON object { … }</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KeychainSecretStore</name>
    <message>
        <source>The system keychain did not answer in time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the key for %1 from the system keychain: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not store the key for %1 in the system keychain: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not remove the key for %1 from the system keychain: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MarkdownAgents</name>
    <message>
        <source>The agent file could not be loaded: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MessageErrors</name>
    <message>
        <source>The answer was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The provider failed %n time(s) in a row, so qcode stopped trying (last error: %1). Try again later or choose another model.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelCatalogue</name>
    <message>
        <source>The bundled model catalogue %1 is missing from this build.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a JSON object (%2 at byte %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no &quot;providers&quot; object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: provider %2 must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: provider %2: %3 must be a string.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: provider %2: env must be a list of variable names.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: provider %2: models must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: model %2/%3 must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelInfo</name>
    <message>
        <source>%1 must be a number of at least 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a whole number of tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>status must be alpha, beta or deprecated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>modalities.input must be a list of strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>headers.%1 must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limit.input must not exceed limit.context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model %1/%2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenAIChatRequestBuilder</name>
    <message>
        <source>The Chat Completions API cannot take &quot;%1&quot; (%2); attach an image or a PDF.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>OpenAIResponsesRequestBuilder</name>
    <message>
        <source>The Responses API cannot take &quot;%1&quot; (%2); attach an image or a PDF.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PermissionRules</name>
    <message>
        <source>%1: %2&quot;%3&quot; is %4, which is not &quot;allow&quot;, &quot;ask&quot; or &quot;deny&quot;; it is treated as &quot;ask&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2&quot;%3&quot; must be &quot;allow&quot;, &quot;ask&quot;, &quot;deny&quot; or a map of them; it is %4 and is ignored.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProviderError</name>
    <message>
        <source>The server answered with an HTML page instead of an API response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection closed before the provider finished its answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no details given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider rejected the API key (%1). Check the key in the settings or in the provider&apos;s environment variable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API key may not use this model or feature (%1). Check the key&apos;s permissions with the provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider does not know this model or address (%1). Check the model name and the base URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The account has run out of quota or credit (%1). Add credit or change the plan with the provider, or choose another model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The provider&apos;s rate limit was reached (%1). qcode will try again in %n second(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>The provider&apos;s rate limit was reached (%1). qcode will try again after a pause.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider is overloaded right now (%1). qcode will try again shortly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation no longer fits the model&apos;s context window (%1). Compact the session or start a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request is too large for the provider (%1). Remove some images or attached files and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model produced a tool call the provider rejected (%1). qcode will ask again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider rejected the request (%1). Check the model&apos;s options in the configuration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). qcode will try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). Try again later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to the provider failed (%1). Check the network and the provider&apos;s address; qcode will try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider did not answer in time (%1). qcode will try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was stopped before the provider finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider returned an error qcode does not recognise (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free usage exceeded, add credits to your account</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider is overloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RequestBuilder</name>
    <message>
        <source>system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model is selected for provider &quot;%1&quot;. Choose a model and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address &quot;%1&quot; of provider &quot;%2&quot; is not an http(s) URL. Fix its baseURL in the configuration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider &quot;%1&quot; uses a wire protocol qcode does not know (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A tool without a name cannot be offered to the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool &quot;%1&quot; is offered twice; tool names must be unique.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool call &quot;%1&quot; has no result before the next assistant turn; every tool call needs a result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A %1 message holds content that only another role may send; the conversation cannot be sent as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A tool call without an id or a tool name cannot be sent back to the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The result of tool &quot;%1&quot; (call &quot;%2&quot;) has no matching tool call in the assistant turn before it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool call &quot;%1&quot; has no result; every tool call needs a result before the conversation continues.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no message to send to the model.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionTransfer</name>
    <message>
        <source>There is no session %1 to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a session export: the JSON is invalid at byte %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not a session export: expected an object with &quot;info&quot; and &quot;messages&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The exported session is invalid: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 of the export is invalid: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 belongs to session %2, not to the exported session %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part %1 belongs to session %2, not to the exported session %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session %1 (&quot;%2&quot;) is already here. Delete it first to import this copy.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>Cannot create the folder %1 for the database. Check that you may write there, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the database %1: its folder is read-only. Make the folder writable, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a file, so it cannot be qcode&apos;s database. Move it away, or set QCODE_DATA_DIR to another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the database %1 (%2). Check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not an SQLite database, or it is damaged. qcode left it untouched. Move it aside (or restore a backup) and start qcode again to create a new one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 is read-only. qcode needs to write to it: give yourself write permission on the file, or copy it somewhere writable and set QCODE_DATA_DIR.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another program is using the database %1. Close other qcode or OpenCode windows that use it and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 is damaged. qcode did not change it. Move it aside (or restore a backup) and start qcode again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 or its folder is read-only. Give yourself write permission on both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space and try again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not %1 in the database %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Internal error: the database %1 was used from the wrong thread.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prepare a query</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read the schema version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database %1 was written by a newer qcode (schema %2; this qcode knows up to %3). Update qcode, or move the file aside to start afresh. The file was not changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read the schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configure the connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>upgrade the schema to version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>record the schema version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>start a transaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>commit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save project %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read project %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>look up the project of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session %1 has damaged data in the database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list the sessions of project %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list the child sessions of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>find the child sessions of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save message %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save part %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete message %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>delete part %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 has damaged data in the database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part %1 has damaged data in the database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read message %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read the messages of session %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save the todo list of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read the todo list of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read the permission rules of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The saved permission rules of project %1 are damaged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>save the permission rules of %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>UserMessageBuilder</name>
    <message>
        <source>The message id is not valid: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A part id is not valid: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The part id %1 is given twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No agent is chosen and there is no default agent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model is chosen: pick a model or configure a default one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attachment %1 has no valid URL (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the attached text %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No MCP server named %1 is connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource not found: %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>YamlSubset</name>
    <message>
        <source>this line does not fit the structure above it; check its indentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a tab is used for indentation; YAML indents with spaces only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the values are nested too deeply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this line is indented more than the keys above it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a list item &quot;- …&quot; where a &quot;key: value&quot; line was expected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected a &quot;key: value&quot; line, found &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key &quot;%1&quot; is given twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this list item is indented more than the items above it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YAML anchors (&amp;) and tags (!) are not supported in front matter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this line is indented more than the keys above it (a nested map starts on the line after its &quot;key:&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a bad \%1 escape in a double-quoted value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an unknown escape \%1 in a double-quoted value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a quoted value is never closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected text &quot;%1&quot; after a quoted value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected &quot;%1&quot; after a block scalar indicator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a [ or { is never closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected text &quot;%1&quot; after a [list] or {map}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a [list] or {map} ends too early</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected &quot;,&quot; or &quot;]&quot; in a [list]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a key is missing in a {map}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expected &quot;,&quot; or &quot;}&quot; in a {map}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>qcode — a desktop coding agent.

Environment: QCODE_DATA_DIR overrides where the database lives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project folder to open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>qcode cannot start</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::HttpStream</name>
    <message>
        <source>the request was stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the connection to %1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sent no response within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sent nothing for %2 s in the middle of its answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the response from %1 grew beyond %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::MainWindow</name>
    <message>
        <source>qcode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Project Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project folder (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>qcode works inside one folder at a time: the agent reads and changes the files there, with your permission.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Project Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — qcode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No sessions in %1 yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) in %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::OpenAIResponsesStreamDecoder</name>
    <message>
        <source>The provider reported that the response failed without saying why.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::PartWriter</name>
    <message>
        <source>Part %1 is a %2 part, which does not stream.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Part %1 is not streaming.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::ProviderCall</name>
    <message>
        <source>no network access is available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider&apos;s answer ended without a result</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::ProviderConfig</name>
    <message>
        <source>%1 must be a list of strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::ProviderRegistry</name>
    <message>
        <source>No system keychain is available to keep the key in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider %1 uses the package %2, whose API qcode does not speak; it is left out.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider %1 has no usable base URL; set provider.%1.options.baseURL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config&apos;s model &quot;%1&quot; is not of the form provider/model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model provider is set up. Set an API key (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to opencode.json, or start a local server such as Ollama.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider %1 offers no models.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::SessionListModel</name>
    <message>
        <source>%1
Created %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>qcode::SseReader</name>
    <message>
        <source>The provider sent a line longer than %1 bytes; the stream was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider sent an event larger than %1 bytes; the stream was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
