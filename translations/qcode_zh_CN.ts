<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AgentConfig</name>
    <message>
        <source>true/false</source>
        <translation>true/false</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>a map</source>
        <translation>映射</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>空值</translation>
    </message>
    <message>
        <source>must be text, not %1</source>
        <translation>必须是文本，而不是%1</translation>
    </message>
    <message>
        <source>must be a number, not %1</source>
        <translation>必须是数字，而不是%1</translation>
    </message>
    <message>
        <source>must be true or false, not %1</source>
        <translation>必须是 true 或 false，而不是%1</translation>
    </message>
    <message>
        <source>must be a whole number of at least 1, not %1</source>
        <translation>必须是不小于 1 的整数，而不是%1</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>must be written "provider/model", such as "anthropic/claude-sonnet-4-5"; "%1" is not</source>
        <translation>必须写成 "provider/model" 形式，例如 "anthropic/claude-sonnet-4-5"；"%1" 不符合</translation>
    </message>
    <message>
        <source>must be "primary", "subagent" or "all", not "%1"</source>
        <translation>必须是 "primary"、"subagent" 或 "all"，而不是 "%1"</translation>
    </message>
    <message>
        <source>must be a colour such as "#FF5733" or one of %1, not "%2"</source>
        <translation>必须是颜色（例如 "#FF5733"）或 %1 之一，而不是 "%2"</translation>
    </message>
    <message>
        <source>must be a map, not %1</source>
        <translation>必须是映射，而不是%1</translation>
    </message>
    <message>
        <source>must be a map of tool names to true or false, not %1</source>
        <translation>必须是工具名到 true 或 false 的映射，而不是%1</translation>
    </message>
    <message>
        <source>must map each tool to true or false; "%1" is %2</source>
        <translation>必须将每个工具映射为 true 或 false；"%1" 是%2</translation>
    </message>
    <message>
        <source>must be "allow", "ask", "deny" or a map of them, not %1</source>
        <translation>必须是 "allow"、"ask"、"deny" 或由它们组成的映射，而不是%1</translation>
    </message>
    <message>
        <source>agent "%1"</source>
        <translation>智能体 "%1"</translation>
    </message>
    <message>
        <source>agent "%1": "%2" %3.</source>
        <translation>智能体“%1”：“%2”%3。</translation>
    </message>
</context>
<context>
    <name>AgentRegistry</name>
    <message>
        <source>OPENCODE_PERMISSION is not valid JSON (%1); it is ignored.</source>
        <translation>OPENCODE_PERMISSION 不是有效的 JSON（%1），已忽略。</translation>
    </message>
    <message>
        <source>config: "tools" must be a map of tool names to true or false; it is ignored.</source>
        <translation>配置："tools" 必须是工具名到 true 或 false 的映射，已忽略。</translation>
    </message>
    <message>
        <source>config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>config: "%1" must be a map of agent names to their settings; it is ignored.</source>
        <translation>配置："%1" 必须是智能体名称到其设置的映射，已忽略。</translation>
    </message>
    <message>
        <source>config: %1.%2 must be a map of settings; it is ignored.</source>
        <translation>配置：%1.%2 必须是设置的映射，已忽略。</translation>
    </message>
    <message>
        <source>%1: the settings for the built-in agent "%2" are ignored except its permission rules.</source>
        <translation>%1：内置智能体 "%2" 的设置除权限规则外均被忽略。</translation>
    </message>
    <message>
        <source>%1: the agent "%2" is skipped.</source>
        <translation>%1：已跳过智能体 "%2"。</translation>
    </message>
    <message>
        <source>config: "default_agent" must be an agent name; it is ignored.</source>
        <translation>配置："default_agent" 必须是智能体名称，已忽略。</translation>
    </message>
    <message>
        <source>default agent "%1" not found</source>
        <translation>未找到默认智能体 "%1"</translation>
    </message>
    <message>
        <source>default agent "%1" is a subagent</source>
        <translation>默认智能体 "%1" 是子智能体</translation>
    </message>
    <message>
        <source>default agent "%1" is hidden</source>
        <translation>默认智能体 "%1" 已隐藏</translation>
    </message>
    <message>
        <source>no primary visible agent found</source>
        <translation>未找到可见的主智能体</translation>
    </message>
</context>
<context>
    <name>AnthropicRequestBuilder</name>
    <message>
        <source>Anthropic models read JPEG, PNG, GIF and WebP images; "%1" is %2.</source>
        <translation>Anthropic 模型可读取 JPEG、PNG、GIF 和 WebP 图片；"%1" 是 %2。</translation>
    </message>
    <message>
        <source>Anthropic models cannot read "%1" (%2); attach an image, a PDF or text.</source>
        <translation>Anthropic 模型无法读取 "%1"（%2）；请附加图片、PDF 或文本。</translation>
    </message>
    <message>
        <source>Anthropic takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation>Anthropic 只接受位于对话之前的系统指令；但对话之后出现了一条系统消息。</translation>
    </message>
    <message>
        <source>There is no message left to send to Anthropic once empty text is removed.</source>
        <translation>移除空文本后，没有可发送给 Anthropic 的消息。</translation>
    </message>
    <message>
        <source>Anthropic needs a thinking budget of at least %1 tokens; %2 was asked for.</source>
        <translation>Anthropic 要求思考预算至少为 %1 个 token；请求的是 %2。</translation>
    </message>
</context>
<context>
    <name>AttachmentIntake</name>
    <message>
        <source>%1 is not a file on this computer; only local files and folders can be attached.</source>
        <translation>%1 不是本机上的文件；只能附加本地文件和文件夹。</translation>
    </message>
    <message>
        <source>%1 does not exist (it may have been moved or deleted).</source>
        <translation>%1 不存在（可能已被移动或删除）。</translation>
    </message>
    <message>
        <source>%1 cannot be read: you do not have permission to open it.</source>
        <translation>无法读取 %1：你没有打开它的权限。</translation>
    </message>
    <message>
        <source>%1 is %2 MB; images can be at most %3 MB.</source>
        <translation>%1 大小为 %2 MB；图片最大为 %3 MB。</translation>
    </message>
    <message>
        <source>%1 is %2 MB; attached documents can be at most %3 MB.</source>
        <translation>%1 大小为 %2 MB；附加的文档最大为 %3 MB。</translation>
    </message>
    <message>
        <source>The pasted image could not be read.</source>
        <translation>无法读取粘贴的图片。</translation>
    </message>
    <message>
        <source>The pasted image could not be converted to PNG.</source>
        <translation>无法将粘贴的图片转换为 PNG。</translation>
    </message>
    <message>
        <source>The pasted image is %1 MB as PNG; images can be at most %2 MB.</source>
        <translation>粘贴的图片转为 PNG 后为 %1 MB；图片最大为 %2 MB。</translation>
    </message>
    <message>
        <source>Pasted image %1 × %2</source>
        <translation>粘贴的图片 %1 × %2</translation>
    </message>
</context>
<context>
    <name>CommandPrompt</name>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>未找到智能体："%1"。</translation>
    </message>
    <message>
        <source>Available agents: %1</source>
        <translation>可用的智能体：%1</translation>
    </message>
    <message>
        <source>Command not found: "%1".</source>
        <translation>未找到命令："%1"。</translation>
    </message>
    <message>
        <source>Available commands: %1</source>
        <translation>可用的命令：%1</translation>
    </message>
</context>
<context>
    <name>CommandRegistry</name>
    <message>
        <source>"%1" must be text</source>
        <translation>"%1" 必须是文本</translation>
    </message>
    <message>
        <source>"model" must be of the form provider/model</source>
        <translation>"model" 必须是 provider/model 形式</translation>
    </message>
    <message>
        <source>"subtask" must be true or false</source>
        <translation>"subtask" 必须是 true 或 false</translation>
    </message>
    <message>
        <source>config</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>%1: command.%2 must be a map of settings; it is skipped.</source>
        <translation>%1：command.%2 必须是设置的映射，已跳过。</translation>
    </message>
    <message>
        <source>%1: command.%2 has no "template" text; it is skipped.</source>
        <translation>%1：command.%2 没有 "template" 文本，已跳过。</translation>
    </message>
    <message>
        <source>config: "command" must be a map of command names to their settings; it is ignored.</source>
        <translation>配置："command" 必须是命令名称到其设置的映射，已忽略。</translation>
    </message>
    <message>
        <source>The command file could not be loaded: %1</source>
        <translation>无法加载命令文件：%1</translation>
    </message>
    <message>
        <source>%1: the command "%2" is skipped: %3.</source>
        <translation>%1：已跳过命令 "%2"：%3。</translation>
    </message>
</context>
<context>
    <name>CompatibleProvider</name>
    <message>
        <source>Give the provider an id, such as “my-server”; models are then named my-server/&lt;model&gt;.</source>
        <translation>请为提供商指定一个 ID，例如“my-server”；其模型将命名为 my-server/&lt;model&gt;。</translation>
    </message>
    <message>
        <source>The provider id “%1” may use only letters, digits, dots, dashes and underscores, and must start with a letter or digit.</source>
        <translation>提供商 ID“%1”只能包含字母、数字、点、短横线和下划线，且必须以字母或数字开头。</translation>
    </message>
    <message>
        <source>List at least one model id the server offers; a provider without models is not offered.</source>
        <translation>请至少列出一个服务器提供的模型 ID；没有模型的提供商不会出现在可选列表中。</translation>
    </message>
    <message>
        <source>The model id “%1” must not be empty or contain spaces.</source>
        <translation>模型 ID“%1”不能为空，也不能包含空格。</translation>
    </message>
    <message>
        <source>Enter the server's base URL, such as http://127.0.0.1:8000/v1.</source>
        <translation>请输入服务器的基础 URL，例如 http://127.0.0.1:8000/v1。</translation>
    </message>
    <message>
        <source>“%1” is not a usable base URL; it must start with http:// or https:// and name a host, such as http://127.0.0.1:8000/v1.</source>
        <translation>“%1”不是可用的基础 URL；它必须以 http:// 或 https:// 开头并包含主机名，例如 http://127.0.0.1:8000/v1。</translation>
    </message>
</context>
<context>
    <name>CompletionRanking</name>
    <message>
        <source>agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>subagent</source>
        <translation>子智能体</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
</context>
<context>
    <name>Config</name>
    <message>
        <source>The config key "%1" must be a "provider/model" string; it is ignored.</source>
        <translation>配置项 "%1" 必须是 "provider/model" 形式的字符串，已忽略。</translation>
    </message>
    <message>
        <source>The config key "%1" must be a list of provider ids; it is ignored.</source>
        <translation>配置项 "%1" 必须是提供商 ID 列表，已忽略。</translation>
    </message>
    <message>
        <source>The config entry provider.%1 must be an object; it is ignored.</source>
        <translation>配置条目 provider.%1 必须是对象，已忽略。</translation>
    </message>
    <message>
        <source>The config key "provider" must be an object; it is ignored.</source>
        <translation>配置项 "provider" 必须是对象，已忽略。</translation>
    </message>
</context>
<context>
    <name>ConfigFile</name>
    <message>
        <source>is %1 bytes, larger than the %2 MiB a config file may be</source>
        <translation>大小为 %1 字节，超过了配置文件允许的 %2 MiB</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>is a named pipe (FIFO), not a file</source>
        <translation>是命名管道（FIFO），不是文件</translation>
    </message>
    <message>
        <source>is a socket, not a file</source>
        <translation>是套接字，不是文件</translation>
    </message>
    <message>
        <source>is a device, not a file</source>
        <translation>是设备，不是文件</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
</context>
<context>
    <name>ConfigLoader</name>
    <message>
        <source>%1: the config file named by the environment does not exist</source>
        <translation>%1：环境变量指定的配置文件不存在</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text (byte 0x%1)</source>
        <translation>该文件不是 UTF-8 文本（字节 0x%1）</translation>
    </message>
</context>
<context>
    <name>ConfigSchema</name>
    <message>
        <source>the number %1</source>
        <translation>数字 %1</translation>
    </message>
    <message>
        <source>the text "%1"</source>
        <translation>文本“%1”</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>"%1" must be %2, not %3</source>
        <translation>“%1”必须是%2，而不是%3</translation>
    </message>
    <message>
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>a whole number of at least 1</source>
        <translation>不小于 1 的整数</translation>
    </message>
    <message>
        <source>one of "%1"</source>
        <translation>“%1”之一</translation>
    </message>
    <message>
        <source>an object { … }</source>
        <translation>对象 { … }</translation>
    </message>
    <message>
        <source>a list of texts [ … ]</source>
        <translation>文本列表 [ … ]</translation>
    </message>
    <message>
        <source>"allow", "ask" or "deny"</source>
        <translation>“allow”、“ask”或“deny”</translation>
    </message>
    <message>
        <source>"allow", "ask", "deny" or an object of them</source>
        <translation>“allow”、“ask”、“deny”或由它们组成的对象</translation>
    </message>
    <message>
        <source>written "provider/model"</source>
        <translation>写作“provider/model”形式</translation>
    </message>
    <message>
        <source>a colour such as "#FF5733" or one of %1</source>
        <translation>颜色，如“#FF5733”，或 %1 之一</translation>
    </message>
    <message>
        <source>a number of milliseconds or false</source>
        <translation>毫秒数或 false</translation>
    </message>
</context>
<context>
    <name>ConfigSubstitution</name>
    <message>
        <source>does not exist</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>bad file reference "%1": %2 %3</source>
        <translation>无效的文件引用“%1”：%2 %3</translation>
    </message>
    <message>
        <source>is not UTF-8 text</source>
        <translation>不是 UTF-8 文本</translation>
    </message>
</context>
<context>
    <name>FallbackSecretStore</name>
    <message>
        <source>The key file %1 cannot be read: %2</source>
        <translation>无法读取密钥文件 %1：%2</translation>
    </message>
    <message>
        <source>The key file %1 is not a JSON object; its keys are not used.</source>
        <translation>密钥文件 %1 不是 JSON 对象；其中的密钥不会被使用。</translation>
    </message>
    <message>
        <source>The folder of the key file %1 cannot be made.</source>
        <translation>无法创建密钥文件 %1 所在的文件夹。</translation>
    </message>
    <message>
        <source>The key file %1 cannot be written: %2</source>
        <translation>无法写入密钥文件 %1：%2</translation>
    </message>
</context>
<context>
    <name>FencedCodeWriter</name>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>FrontMatter</name>
    <message>
        <source>%1:1: the front matter that starts here is never closed by a "---" line</source>
        <translation>%1:1：从此处开始的 front matter 没有以 "---" 行结束</translation>
    </message>
    <message>
        <source>%1:2: the front matter must be "key: value" lines</source>
        <translation>%1:2：front matter 必须由 "key: value" 行组成</translation>
    </message>
    <message>
        <source>%1: the file is not UTF-8 text</source>
        <translation>%1：该文件不是 UTF-8 文本</translation>
    </message>
</context>
<context>
    <name>GeminiRequestBuilder</name>
    <message>
        <source>Gemini takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation>Gemini 只接受位于对话之前的系统指令；但对话之后出现了一条系统消息。</translation>
    </message>
    <message>
        <source>There is no message left to send to Gemini once empty text is removed.</source>
        <translation>移除空文本后，没有可发送给 Gemini 的消息。</translation>
    </message>
</context>
<context>
    <name>GitProcess</name>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>%1 %2 crashed.</source>
        <translation>%1 %2 崩溃了。</translation>
    </message>
</context>
<context>
    <name>JsoncParser</name>
    <message>
        <source>a /* comment is never closed</source>
        <translation>/* 注释没有闭合</translation>
    </message>
    <message>
        <source>the configuration must be a JSON object { … }</source>
        <translation>配置必须是一个 JSON 对象 { … }</translation>
    </message>
</context>
<context>
    <name>KeychainMessages</name>
    <message>
        <source>%1.</source>
        <comment>a sentence that came without its full stop</comment>
        <translation>%1。</translation>
    </message>
    <message>
        <source>The system keychain cannot be read. Keys can still come from environment variables.</source>
        <translation>无法读取系统钥匙串。密钥仍可来自环境变量。</translation>
    </message>
    <message>
        <source>The system keychain cannot be read. %1 Keys can still come from environment variables.</source>
        <translation>无法读取系统钥匙串。%1 密钥仍可来自环境变量。</translation>
    </message>
    <message>
        <source>The key for %1 was not saved. Without a keychain, set the environment variable %2 to the key before starting qcode (for example in your shell profile).</source>
        <translation>%1 的密钥未保存。没有钥匙串时，请在启动 qcode 之前将环境变量 %2 设置为该密钥（例如在 shell 配置文件中）。</translation>
    </message>
    <message>
        <source>The key for %1 was not saved. %2 Without a keychain, set the environment variable %3 to the key before starting qcode (for example in your shell profile).</source>
        <translation>%1 的密钥未保存。%2 没有钥匙串时，请在启动 qcode 之前将环境变量 %3 设置为该密钥（例如在 shell 配置文件中）。</translation>
    </message>
    <message>
        <source>The key for %1 was not removed from the system keychain.</source>
        <translation>%1 的密钥未从系统钥匙串中移除。</translation>
    </message>
    <message>
        <source>The key for %1 was not removed from the system keychain. %2</source>
        <translation>%1 的密钥未从系统钥匙串中移除。%2</translation>
    </message>
    <message>
        <source>No system keychain is running, so the key for %1 is saved in a private file only you can read: %2</source>
        <translation>系统钥匙串未运行，因此 %1 的密钥保存在只有您能读取的私有文件中：%2</translation>
    </message>
    <message>
        <source>No system keychain is running. Keys typed here are saved in a private file only you can read: %1</source>
        <translation>系统钥匙串未运行。在此输入的密钥会保存在只有您能读取的私有文件中：%1</translation>
    </message>
</context>
<context>
    <name>KeychainSecretStore</name>
    <message>
        <source>The system keychain did not answer in time.</source>
        <translation>系统钥匙串未能及时响应。</translation>
    </message>
    <message>
        <source>Could not read the key for %1 from the system keychain: %2</source>
        <translation>无法从系统钥匙串读取 %1 的密钥：%2</translation>
    </message>
    <message>
        <source>Could not store the key for %1 in the system keychain: %2</source>
        <translation>无法将 %1 的密钥存入系统钥匙串：%2</translation>
    </message>
    <message>
        <source>Could not remove the key for %1 from the system keychain: %2</source>
        <translation>无法从系统钥匙串中移除 %1 的密钥：%2</translation>
    </message>
    <message>
        <source>No system keychain is available: %1</source>
        <translation>没有可用的系统钥匙串：%1</translation>
    </message>
</context>
<context>
    <name>MarkdownRenderer</name>
    <message numerus="yes">
        <source>… %n more line(s) not shown here; Copy copies them all</source>
        <translation>
            <numerusform>… 此处未显示另外 %n 行；“复制”会复制全部内容</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more character(s) not shown here</source>
        <translation>
            <numerusform>… 此处未显示另外 %n 个字符</numerusform>
        </translation>
    </message>
    <message>
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>MessageErrors</name>
    <message>
        <source>The answer was stopped.</source>
        <translation>回答已停止。</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>The provider failed %n time(s) in a row, so qcode stopped trying (last error: %1). Try again later or choose another model.</source>
        <translation>
            <numerusform>提供商连续失败 %n 次，qcode 已停止重试（最后的错误：%1）。请稍后再试，或选择其他模型。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelCatalogue</name>
    <message>
        <source>The bundled model catalogue %1 is missing from this build.</source>
        <translation>此构建中缺少内置的模型目录 %1。</translation>
    </message>
    <message>
        <source>%1 is not a JSON object (%2 at byte %3).</source>
        <translation>%1 不是 JSON 对象（%2，位于第 %3 字节）。</translation>
    </message>
    <message>
        <source>%1 has no "providers" object.</source>
        <translation>%1 没有 "providers" 对象。</translation>
    </message>
    <message>
        <source>%1: provider %2 must be an object.</source>
        <translation>%1：提供商 %2 必须是对象。</translation>
    </message>
    <message>
        <source>%1: provider %2: %3 must be a string.</source>
        <translation>%1：提供商 %2：%3 必须是字符串。</translation>
    </message>
    <message>
        <source>%1: provider %2: env must be a list of variable names.</source>
        <translation>%1：提供商 %2：env 必须是变量名列表。</translation>
    </message>
    <message>
        <source>%1: provider %2: models must be an object.</source>
        <translation>%1：提供商 %2：models 必须是对象。</translation>
    </message>
    <message>
        <source>%1: model %2/%3 must be an object.</source>
        <translation>%1：模型 %2/%3 必须是对象。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>config</source>
        <translation>配置</translation>
    </message>
</context>
<context>
    <name>ModelInfo</name>
    <message>
        <source>%1 must be a number of at least 0</source>
        <translation>%1 必须是不小于 0 的数字</translation>
    </message>
    <message>
        <source>%1 must be a whole number of tokens</source>
        <translation>%1 必须是整数个 token</translation>
    </message>
    <message>
        <source>%1 must be true or false</source>
        <translation>%1 必须是 true 或 false</translation>
    </message>
    <message>
        <source>%1 must be a string</source>
        <translation>%1 必须是字符串</translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation>%1 必须是对象</translation>
    </message>
    <message>
        <source>status must be alpha, beta or deprecated</source>
        <translation>status 必须是 alpha、beta 或 deprecated</translation>
    </message>
    <message>
        <source>modalities.input must be a list of strings</source>
        <translation>modalities.input 必须是字符串列表</translation>
    </message>
    <message>
        <source>headers.%1 must be a string</source>
        <translation>headers.%1 必须是字符串</translation>
    </message>
    <message>
        <source>limit.input must not exceed limit.context</source>
        <translation>limit.input 不能超过 limit.context</translation>
    </message>
    <message>
        <source>Model %1/%2: %3</source>
        <translation>模型 %1/%2：%3</translation>
    </message>
</context>
<context>
    <name>OpenAIChatRequestBuilder</name>
    <message>
        <source>The Chat Completions API cannot take "%1" (%2); attach an image or a PDF.</source>
        <translation>Chat Completions API 无法接收 "%1"（%2）；请附加图片或 PDF。</translation>
    </message>
</context>
<context>
    <name>OpenAIResponsesRequestBuilder</name>
    <message>
        <source>The Responses API cannot take "%1" (%2); attach an image or a PDF.</source>
        <translation>Responses API 无法接收 "%1"（%2）；请附加图片或 PDF。</translation>
    </message>
</context>
<context>
    <name>OptionValue</name>
    <message>
        <source>%1 was given more than once.</source>
        <translation>%1 被给出了不止一次。</translation>
    </message>
    <message>
        <source>%1 needs a value.</source>
        <translation>%1 需要一个值。</translation>
    </message>
</context>
<context>
    <name>PermissionDescription</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 及另外 %n 项</numerusform>
        </translation>
    </message>
    <message>
        <source>every file edit</source>
        <translation>所有文件编辑</translation>
    </message>
    <message>
        <source>reading any file</source>
        <translation>读取任意文件</translation>
    </message>
    <message>
        <source>finding any files</source>
        <translation>查找任意文件</translation>
    </message>
    <message>
        <source>searching any file contents</source>
        <translation>搜索任意文件内容</translation>
    </message>
    <message>
        <source>listing any folder</source>
        <translation>列出任意文件夹</translation>
    </message>
    <message>
        <source>fetching any web page</source>
        <translation>获取任意网页</translation>
    </message>
    <message>
        <source>starting any subagent</source>
        <translation>启动任意子智能体</translation>
    </message>
    <message>
        <source>updating the to-do list</source>
        <translation>更新待办列表</translation>
    </message>
    <message>
        <source>reading the to-do list</source>
        <translation>读取待办列表</translation>
    </message>
    <message>
        <source>every “%1” request</source>
        <translation>所有“%1”请求</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Edit a file</source>
        <translation>编辑文件</translation>
    </message>
    <message numerus="yes">
        <source>Edit %n files</source>
        <translation>
            <numerusform>编辑 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>更改</translation>
    </message>
    <message>
        <source>Run a command that reaches outside the project</source>
        <translation>运行会访问项目外部的命令</translation>
    </message>
    <message>
        <source>Folders outside the project</source>
        <translation>项目外部的文件夹</translation>
    </message>
    <message>
        <source>Access a folder outside the project</source>
        <translation>访问项目外部的文件夹</translation>
    </message>
    <message>
        <source>Access a file outside the project</source>
        <translation>访问项目外部的文件</translation>
    </message>
    <message>
        <source>Outside the project</source>
        <translation>项目外部</translation>
    </message>
    <message>
        <source>Find files by name</source>
        <translation>按名称查找文件</translation>
    </message>
    <message>
        <source>Search file contents</source>
        <translation>搜索文件内容</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>In folder</source>
        <translation>所在文件夹</translation>
    </message>
    <message>
        <source>In files named</source>
        <translation>文件名匹配</translation>
    </message>
    <message numerus="yes">
        <source>The agent repeated the same call %n times (doom loop)</source>
        <translation>
            <numerusform>智能体已重复同一调用 %n 次（死循环）</numerusform>
        </translation>
    </message>
    <message>
        <source>It may be stuck. Allow it to go on with the same call, or tell it what to do instead.</source>
        <translation>它可能卡住了。你可以允许它继续执行同一调用，或者告诉它改做什么。</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Read a file</source>
        <translation>读取文件</translation>
    </message>
    <message>
        <source>List a folder</source>
        <translation>列出文件夹</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>Fetch a web page</source>
        <translation>获取网页</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Search the web</source>
        <translation>搜索网络</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <source>Search for code on the web</source>
        <translation>在网络上搜索代码</translation>
    </message>
    <message>
        <source>Start a subagent</source>
        <translation>启动子智能体</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>子智能体</translation>
    </message>
    <message>
        <source>Load a skill</source>
        <translation>加载技能</translation>
    </message>
    <message>
        <source>Skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <source>Update the to-do list</source>
        <translation>更新待办列表</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>读取待办列表</translation>
    </message>
    <message>
        <source>Use “%1”</source>
        <translation>使用“%1”</translation>
    </message>
    <message>
        <source>On</source>
        <translation>作用于</translation>
    </message>
    <message>
        <source>repeated %1 calls</source>
        <translation>重复的 %1 调用</translation>
    </message>
    <message>
        <source>&amp;Always allow %1 in this session</source>
        <translation>在本会话中始终允许 %1(&amp;A)</translation>
    </message>
    <message>
        <source>Always allow %1 in this &amp;project</source>
        <translation>在本项目中始终允许 %1(&amp;P)</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>This allows the agent to change any file in the project without asking, not only the ones it asks about now.</source>
        <translation>这将允许智能体不经询问修改项目中的任何文件，而不仅是它现在询问的这些。</translation>
    </message>
    <message>
        <source>This allows every request of this kind without asking, not only this one.</source>
        <translation>这将不经询问允许所有此类请求，而不仅是这一个。</translation>
    </message>
    <message numerus="yes">
        <source> The same holds for the other %n pattern(s).</source>
        <translation>
            <numerusform>其他 %n 个模式也是如此。</numerusform>
        </translation>
    </message>
    <message>
        <source>Saves the rule %1: it also allows any other %2 command, whatever follows it (for example %3).</source>
        <translation>保存规则 %1：它还允许任何其他 %2 命令，无论后面跟什么（例如 %3）。</translation>
    </message>
    <message>
        <source>Saves the rule %1: it allows exactly that and nothing else.</source>
        <translation>保存规则 %1：它只允许这一项，别无其他。</translation>
    </message>
    <message>
        <source>Saves the rule %1, where “*” stands for any text: it also allows everything else that matches it.</source>
        <translation>保存规则 %1，其中“*”代表任意文本：它还允许所有与之匹配的其他内容。</translation>
    </message>
</context>
<context>
    <name>PermissionRules</name>
    <message>
        <source>%1: %2"%3" is %4, which is not "allow", "ask" or "deny"; it is treated as "ask".</source>
        <translation>%1：%2"%3" 的值为 %4，不是 "allow"、"ask" 或 "deny"；将按 "ask" 处理。</translation>
    </message>
    <message>
        <source>%1: %2"%3" must be "allow", "ask", "deny" or a map of them; it is %4 and is ignored.</source>
        <translation>%1：%2"%3" 必须是 "allow"、"ask"、"deny" 或由它们组成的映射；它是%4，已忽略。</translation>
    </message>
</context>
<context>
    <name>ProjectChoices</name>
    <message>
        <source>Catalogue</source>
        <translation>模型目录</translation>
    </message>
    <message>
        <source>Configured</source>
        <translation>已配置</translation>
    </message>
    <message>
        <source>Local servers</source>
        <translation>本地服务器</translation>
    </message>
</context>
<context>
    <name>ProjectInstance</name>
    <message>
        <source>Model %1/%2 needs an SDK package qcode does not speak (%3).</source>
        <translation>模型 %1/%2 需要 qcode 不支持的 SDK 包（%3）。</translation>
    </message>
    <message>
        <source>Model not found: %1/%2.</source>
        <translation>未找到模型：%1/%2。</translation>
    </message>
    <message>
        <source>Did you mean: %1?</source>
        <translation>你是否要找：%1？</translation>
    </message>
</context>
<context>
    <name>PromptQueue</name>
    <message>
        <source>The queued prompt %1 was already sent or removed.</source>
        <translation>排队的提示词 %1 已发送或已移除。</translation>
    </message>
    <message>
        <source>A subtask needs a prompt: remove the queued prompt instead.</source>
        <translation>子任务需要提示词：请改为移除该排队的提示词。</translation>
    </message>
    <message>
        <source>A queued prompt cannot be empty: remove it instead.</source>
        <translation>排队的提示词不能为空：请改为移除它。</translation>
    </message>
</context>
<context>
    <name>ProposedDiff</name>
    <message>
        <source>The file is deleted.</source>
        <translation>该文件将被删除。</translation>
    </message>
</context>
<context>
    <name>ProviderError</name>
    <message>
        <source>The server answered with an HTML page instead of an API response.</source>
        <translation>服务器返回了 HTML 页面，而不是 API 响应。</translation>
    </message>
    <message>
        <source>The connection closed before the provider finished its answer.</source>
        <translation>提供商完成回答之前连接已关闭。</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1：%2</translation>
    </message>
    <message>
        <source>no details given</source>
        <translation>未提供详细信息</translation>
    </message>
    <message>
        <source>The provider rejected the API key (%1). Check the key in the settings or in the provider's environment variable.</source>
        <translation>提供商拒绝了 API 密钥（%1）。请在设置或提供商的环境变量中检查该密钥。</translation>
    </message>
    <message>
        <source>The API key may not use this model or feature (%1). Check the key's permissions with the provider.</source>
        <translation>该 API 密钥可能无权使用此模型或功能（%1）。请向提供商确认密钥的权限。</translation>
    </message>
    <message>
        <source>The provider does not know this model or address (%1). Check the model name and the base URL.</source>
        <translation>提供商不认识此模型或地址（%1）。请检查模型名称和基础 URL。</translation>
    </message>
    <message>
        <source>The account has run out of quota or credit (%1). Add credit or change the plan with the provider, or choose another model.</source>
        <translation>账户的配额或额度已用完（%1）。请向提供商充值或更改套餐，或者选择其他模型。</translation>
    </message>
    <message numerus="yes">
        <source>The provider's rate limit was reached (%1). qcode will try again in %n second(s).</source>
        <translation>
            <numerusform>已达到提供商的速率限制（%1）。qcode 将在 %n 秒后重试。</numerusform>
        </translation>
    </message>
    <message>
        <source>The provider's rate limit was reached (%1). qcode will try again after a pause.</source>
        <translation>已达到提供商的速率限制（%1）。qcode 将在稍后重试。</translation>
    </message>
    <message>
        <source>The provider is overloaded right now (%1). qcode will try again shortly.</source>
        <translation>提供商当前负载过高（%1）。qcode 将很快重试。</translation>
    </message>
    <message>
        <source>The conversation no longer fits the model's context window (%1). Compact the session or start a new one.</source>
        <translation>对话已超出模型的上下文窗口（%1）。请压缩会话或开始新会话。</translation>
    </message>
    <message>
        <source>The request is too large for the provider (%1). Remove some images or attached files and try again.</source>
        <translation>请求对提供商来说过大（%1）。请移除一些图片或附加文件后重试。</translation>
    </message>
    <message>
        <source>The model produced a tool call the provider rejected (%1). qcode will ask again.</source>
        <translation>模型生成了提供商拒绝的工具调用（%1）。qcode 将重新请求。</translation>
    </message>
    <message>
        <source>The provider rejected the request (%1). Check the model's options in the configuration.</source>
        <translation>提供商拒绝了请求（%1）。请检查配置中的模型选项。</translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). qcode will try again.</source>
        <translation>提供商发生内部错误（%1）。qcode 将重试。</translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). Try again later.</source>
        <translation>提供商发生内部错误（%1）。请稍后再试。</translation>
    </message>
    <message>
        <source>The connection to the provider failed (%1). Check the network and the provider's address; qcode will try again.</source>
        <translation>连接提供商失败（%1）。请检查网络和提供商地址；qcode 将重试。</translation>
    </message>
    <message>
        <source>The provider did not answer in time (%1). qcode will try again.</source>
        <translation>提供商未能及时响应（%1）。qcode 将重试。</translation>
    </message>
    <message>
        <source>The request was stopped before the provider finished.</source>
        <translation>请求在提供商完成之前被停止。</translation>
    </message>
    <message>
        <source>The provider returned an error qcode does not recognise (%1).</source>
        <translation>提供商返回了 qcode 无法识别的错误（%1）。</translation>
    </message>
    <message>
        <source>Free usage exceeded, add credits to your account</source>
        <translation>免费额度已用完，请为账户充值</translation>
    </message>
    <message>
        <source>Provider is overloaded</source>
        <translation>提供商负载过高</translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation>已被限流</translation>
    </message>
</context>
<context>
    <name>ProviderStatus</name>
    <message>
        <source>Key set in the config (options.apiKey)</source>
        <translation>密钥已在配置中设置（options.apiKey）</translation>
    </message>
    <message>
        <source>Key in the system keychain</source>
        <translation>密钥在系统钥匙串中</translation>
    </message>
    <message>
        <source>Key from %1</source>
        <translation>密钥来自 %1</translation>
    </message>
    <message>
        <source>Runs on this computer; no key needed</source>
        <translation>在本机运行；无需密钥</translation>
    </message>
    <message>
        <source>No key (none may be needed)</source>
        <translation>无密钥（可能不需要）</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>无密钥</translation>
    </message>
</context>
<context>
    <name>RelativeTime</name>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>%n 分钟前</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>%n 小时前</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>昨天</translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation>
            <numerusform>%n 天前</numerusform>
        </translation>
    </message>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <source>Earlier</source>
        <translation>更早</translation>
    </message>
</context>
<context>
    <name>RequestBuilder</name>
    <message>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <source>No model is selected for provider "%1". Choose a model and try again.</source>
        <translation>未为提供商 "%1" 选择模型。请选择一个模型后重试。</translation>
    </message>
    <message>
        <source>The address "%1" of provider "%2" is not an http(s) URL. Fix its baseURL in the configuration.</source>
        <translation>提供商 "%2" 的地址 "%1" 不是 http(s) URL。请在配置中修正其 baseURL。</translation>
    </message>
    <message>
        <source>Provider "%1" uses a wire protocol qcode does not know (%2).</source>
        <translation>提供商 "%1" 使用了 qcode 不认识的通信协议（%2）。</translation>
    </message>
    <message>
        <source>A tool without a name cannot be offered to the model.</source>
        <translation>没有名称的工具无法提供给模型。</translation>
    </message>
    <message>
        <source>The tool "%1" is offered twice; tool names must be unique.</source>
        <translation>工具 "%1" 被提供了两次；工具名称必须唯一。</translation>
    </message>
    <message>
        <source>The tool call "%1" has no result before the next assistant turn; every tool call needs a result.</source>
        <translation>工具调用 "%1" 在下一轮助手回复之前没有结果；每个工具调用都需要结果。</translation>
    </message>
    <message>
        <source>A %1 message holds content that only another role may send; the conversation cannot be sent as it is.</source>
        <translation>一条%1消息包含只能由其他角色发送的内容；无法按原样发送该对话。</translation>
    </message>
    <message>
        <source>A tool call without an id or a tool name cannot be sent back to the model.</source>
        <translation>没有 ID 或工具名称的工具调用无法发回给模型。</translation>
    </message>
    <message>
        <source>The result of tool "%1" (call "%2") has no matching tool call in the assistant turn before it.</source>
        <translation>工具 "%1"（调用 "%2"）的结果在前一轮助手回复中没有对应的工具调用。</translation>
    </message>
    <message>
        <source>The tool call "%1" has no result; every tool call needs a result before the conversation continues.</source>
        <translation>工具调用 "%1" 没有结果；对话继续之前，每个工具调用都需要结果。</translation>
    </message>
    <message>
        <source>There is no message to send to the model.</source>
        <translation>没有要发送给模型的消息。</translation>
    </message>
</context>
<context>
    <name>RunArgumentParser</name>
    <message>
        <source>--file needs a path.</source>
        <translation>--file 需要一个路径。</translation>
    </message>
    <message>
        <source>--model "%1" is not of the form provider/model.</source>
        <translation>--model "%1" 不是 provider/model 形式。</translation>
    </message>
    <message>
        <source>--format "%1" is not one of: default, json.</source>
        <translation>--format "%1" 不是以下之一：default、json。</translation>
    </message>
    <message>
        <source>--continue and --session cannot be used together: --session already names the session to continue.</source>
        <translation>--continue 和 --session 不能同时使用：--session 已指定要继续的会话。</translation>
    </message>
    <message>
        <source>Try `qcode run --help`.</source>
        <translation>请尝试 `qcode run --help`。</translation>
    </message>
    <message>
        <source>Usage: qcode run [options] [message…]

Sends one message to the agent without opening a window, prints the answer and exits.
The message is the words given, joined with spaces; without words it is read from
standard input when that is not a terminal.

Options:
  --dir DIR                 The project folder (default: the current folder).
  -m, --model provider/model
                            The model to use, e.g. anthropic/claude-sonnet-4-5.
  --agent NAME              The primary agent to use (default: the configured default).
  -c, --continue            Continue the newest session of the project.
  -s, --session ID          Continue the session with this id.
  -f, --file PATH           Attach a file or folder; repeat for more. Relative paths
                            are taken from the project folder.
  --format default|json     default: the answer on standard output as it streams,
                            tool activity and errors on standard error.
                            json: every event as one JSON object per line.
  --auto-approve            Allow every action the permission rules would ask about.
                            Without it such actions are refused.
  -h, --help                Show this help.

Exit status: 0 when the answer finished, also when a permission or question was
refused on the way (the refusal is on standard error and in the JSON events);
1 when the run itself failed (it could not start, or the provider or the agent
loop failed); 2 for bad arguments; 130 when interrupted.
Data and config follow XDG_DATA_HOME and XDG_CONFIG_HOME (QCODE_DATA_DIR overrides
the data folder).
</source>
        <translation>用法：qcode run [选项] [消息…]

不打开窗口，向智能体发送一条消息，输出回答后退出。
消息由给出的各个词以空格连接而成；没有给出词时，若标准输入不是终端，
则从标准输入读取。

选项：
  --dir DIR                 项目文件夹（默认：当前文件夹）。
  -m, --model provider/model
                            要使用的模型，例如 anthropic/claude-sonnet-4-5。
  --agent NAME              要使用的主智能体（默认：配置的默认智能体）。
  -c, --continue            继续该项目最新的会话。
  -s, --session ID          继续具有此 ID 的会话。
  -f, --file PATH           附加文件或文件夹；可重复以附加多个。相对路径
                            以项目文件夹为基准。
  --format default|json     default：回答在生成时输出到标准输出，
                            工具活动和错误输出到标准错误。
                            json：每个事件输出为一行 JSON 对象。
  --auto-approve            允许权限规则会询问的所有操作。
                            不加此选项时，这些操作会被拒绝。
  -h, --help                显示此帮助。

退出状态：回答完成时为 0，即使途中有权限或问题被拒绝也是如此（拒绝信息在标准错误输出和
JSON 事件中）；运行本身失败时为 1（无法启动，或提供商或智能体循环失败）；参数错误时为 2；
被中断时为 130。
数据和配置遵循 XDG_DATA_HOME 和 XDG_CONFIG_HOME（QCODE_DATA_DIR 会覆盖
数据文件夹）。
</translation>
    </message>
</context>
<context>
    <name>RunPrinter</name>
    <message>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>(failed: %1)</source>
        <translation>（失败：%1）</translation>
    </message>
    <message>
        <source>! Retrying (attempt %1): %2</source>
        <translation>! 正在重试（第 %1 次）：%2</translation>
    </message>
    <message>
        <source>! Permission granted: %1</source>
        <translation>! 已授予权限：%1</translation>
    </message>
    <message>
        <source>! Permission refused: %1. Run with --auto-approve to allow it.</source>
        <translation>! 已拒绝权限：%1。使用 --auto-approve 运行以允许此操作。</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>Aborted.</source>
        <translation>已中止。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>提示：%1</translation>
    </message>
</context>
<context>
    <name>RunRequestResolver</name>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <source>File not found: %1 (looked for %2).</source>
        <translation>未找到文件：%1（查找位置：%2）。</translation>
    </message>
    <message>
        <source>File %1 cannot be read.</source>
        <translation>无法读取文件 %1。</translation>
    </message>
    <message>
        <source>No message: give one as words after `qcode run`, or pipe it in on standard input.</source>
        <translation>没有消息：请在 `qcode run` 之后以词语形式给出，或通过标准输入传入。</translation>
    </message>
</context>
<context>
    <name>RunSessionLookup</name>
    <message>
        <source>Session not found: %1.</source>
        <translation>未找到会话：%1。</translation>
    </message>
    <message>
        <source>No session to continue in %1: run without --continue to start one.</source>
        <translation>%1 中没有可继续的会话：不加 --continue 运行即可开始新会话。</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>会话 %1 不存在。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too large to be a session export (%2 MB).</source>
        <translation>%1 太大，不可能是会话导出文件（%2 MB）。</translation>
    </message>
</context>
<context>
    <name>SessionIdLookup</name>
    <message>
        <source>Session not found: %1. `qcode sessions` lists the stored sessions.</source>
        <translation>未找到会话：%1。`qcode sessions` 会列出已保存的会话。</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>……以及另外 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 is the beginning of %n session id(s); give more of the id:</source>
        <translation>
            <numerusform>%1 是 %n 个会话 ID 的开头；请给出更多的 ID 字符：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionMarkdown</name>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… 还有 %n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>(pending)</source>
        <translation>（等待中）</translation>
    </message>
    <message>
        <source>(running)</source>
        <translation>（运行中）</translation>
    </message>
    <message>
        <source>[Old tool result content cleared]</source>
        <translation>[旧的工具结果内容已清除]</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>**Error:** %1</source>
        <translation>**错误：** %1</translation>
    </message>
    <message>
        <source>## Assistant (%1 · %2)</source>
        <translation>## 助手（%1 · %2）</translation>
    </message>
    <message>
        <source>## You</source>
        <translation>## 你</translation>
    </message>
    <message>
        <source>Attached: %1 (%2)</source>
        <translation>附件：%1（%2）</translation>
    </message>
    <message>
        <source>_Changed: %1_</source>
        <translation>_已更改：%1_</translation>
    </message>
    <message>
        <source>_Subtask for @%1: %2_</source>
        <translation>_@%1 的子任务：%2_</translation>
    </message>
    <message>
        <source>_The conversation was summarized here._</source>
        <translation>_对话在此处进行了摘要。_</translation>
    </message>
    <message>
        <source>In %1, begun %2</source>
        <translation>位于 %1，开始于 %2</translation>
    </message>
</context>
<context>
    <name>SessionRevert</name>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>会话 %1 不存在。</translation>
    </message>
    <message>
        <source>Part %1 of message %2 is not in session %3.</source>
        <translation>消息 %2 的部分 %1 不在会话 %3 中。</translation>
    </message>
    <message>
        <source>Message %1 is not in session %2.</source>
        <translation>消息 %1 不在会话 %2 中。</translation>
    </message>
    <message>
        <source>The engine stopped.</source>
        <translation>引擎已停止。</translation>
    </message>
    <message>
        <source>The files of session %1 could not be restored from snapshot %2; the revert is kept.</source>
        <translation>无法从快照 %2 恢复会话 %1 的文件；撤销状态已保留。</translation>
    </message>
</context>
<context>
    <name>SessionSearch</name>
    <message>
        <source>The sessions could not be searched: %1</source>
        <translation>无法搜索会话：%1</translation>
    </message>
</context>
<context>
    <name>SessionShell</name>
    <message>
        <source>The engine stopped while the command ran.</source>
        <translation>命令运行期间引擎已停止。</translation>
    </message>
</context>
<context>
    <name>SessionTransfer</name>
    <message>
        <source>There is no session %1 to export.</source>
        <translation>没有可导出的会话 %1。</translation>
    </message>
    <message>
        <source>This is not a session export: the JSON is invalid at byte %1 (%2).</source>
        <translation>这不是会话导出文件：JSON 在第 %1 字节处无效（%2）。</translation>
    </message>
    <message>
        <source>This is not a session export: expected an object with "info" and "messages".</source>
        <translation>这不是会话导出文件：应为包含 "info" 和 "messages" 的对象。</translation>
    </message>
    <message>
        <source>The exported session is invalid: %1</source>
        <translation>导出的会话无效：%1</translation>
    </message>
    <message>
        <source>Message %1 of the export is invalid: %2</source>
        <translation>导出文件中的消息 %1 无效：%2</translation>
    </message>
    <message>
        <source>Message %1 belongs to session %2, not to the exported session %3.</source>
        <translation>消息 %1 属于会话 %2，而不是导出的会话 %3。</translation>
    </message>
    <message>
        <source>Part %1 belongs to session %2, not to the exported session %3.</source>
        <translation>部分 %1 属于会话 %2，而不是导出的会话 %3。</translation>
    </message>
    <message>
        <source>Session %1 ("%2") is already here. Delete it first to import this copy.</source>
        <translation>会话 %1（“%2”）已存在。请先删除它，再导入此副本。</translation>
    </message>
    <message>
        <source>This is not a session export: it is empty.</source>
        <translation>这不是会话导出文件：它是空的。</translation>
    </message>
    <message>
        <source>Message %1 of the export is already stored, in session %2. Nothing was imported: an import never replaces what is here.</source>
        <translation>导出文件中的消息 %1 已存储在会话 %2 中。未导入任何内容：导入绝不会替换已有的数据。</translation>
    </message>
    <message>
        <source>Part %1 of the export is already stored, in session %2. Nothing was imported: an import never replaces what is here.</source>
        <translation>导出文件中的部分 %1 已存储在会话 %2 中。未导入任何内容：导入绝不会替换已有的数据。</translation>
    </message>
    <message>
        <source>Message %1 is in the export twice.</source>
        <translation>消息 %1 在导出文件中出现了两次。</translation>
    </message>
    <message>
        <source>Part %1 belongs to message %2, not to the message %3 it is listed under.</source>
        <translation>部分 %1 属于消息 %2，而不是它所列在的消息 %3。</translation>
    </message>
    <message>
        <source>Part %1 is in the export twice.</source>
        <translation>部分 %1 在导出文件中出现了两次。</translation>
    </message>
    <message>
        <source>Message %1 answers message %2, which is not in the export.</source>
        <translation>消息 %1 回复的消息 %2 不在导出文件中。</translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>Cannot create the folder %1 for the database. Check that you may write there, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation>无法为数据库创建文件夹 %1。请检查你是否有写入权限，或将 QCODE_DATA_DIR 设置为你拥有的文件夹。</translation>
    </message>
    <message>
        <source>Cannot create the database %1: its folder is read-only. Make the folder writable, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation>无法创建数据库 %1：其所在文件夹为只读。请使该文件夹可写，或将 QCODE_DATA_DIR 设置为你拥有的文件夹。</translation>
    </message>
    <message>
        <source>%1 is not a file, so it cannot be qcode's database. Move it away, or set QCODE_DATA_DIR to another folder.</source>
        <translation>%1 不是文件，因此不能作为 qcode 的数据库。请将其移走，或将 QCODE_DATA_DIR 设置为其他文件夹。</translation>
    </message>
    <message>
        <source>Cannot read the database %1 (%2). Check its permissions.</source>
        <translation>无法读取数据库 %1（%2）。请检查其权限。</translation>
    </message>
    <message>
        <source>%1 is not an SQLite database, or it is damaged. qcode left it untouched. Move it aside (or restore a backup) and start qcode again to create a new one.</source>
        <translation>%1 不是 SQLite 数据库，或已损坏。qcode 未改动它。请将其移到别处（或恢复备份），然后重新启动 qcode 以创建新数据库。</translation>
    </message>
    <message>
        <source>The database %1 is read-only. qcode needs to write to it: give yourself write permission on the file, or copy it somewhere writable and set QCODE_DATA_DIR.</source>
        <translation>数据库 %1 为只读。qcode 需要写入它：请为自己授予该文件的写入权限，或将其复制到可写位置并设置 QCODE_DATA_DIR。</translation>
    </message>
    <message>
        <source>open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Another program is using the database %1. Close other qcode or OpenCode windows that use it and try again.</source>
        <translation>另一个程序正在使用数据库 %1。请关闭使用它的其他 qcode 或 OpenCode 窗口，然后重试。</translation>
    </message>
    <message>
        <source>The database %1 is damaged. qcode did not change it. Move it aside (or restore a backup) and start qcode again.</source>
        <translation>数据库 %1 已损坏。qcode 未改动它。请将其移到别处（或恢复备份），然后重新启动 qcode。</translation>
    </message>
    <message>
        <source>The database %1 or its folder is read-only. Give yourself write permission on both.</source>
        <translation>数据库 %1 或其所在文件夹为只读。请为自己授予两者的写入权限。</translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space and try again.</source>
        <translation>存放 %1 的磁盘已满。请释放一些空间后重试。</translation>
    </message>
    <message>
        <source>Could not %1 in the database %2.</source>
        <translation>无法在数据库 %2 中执行操作：%1。</translation>
    </message>
    <message>
        <source>Internal error: the database %1 was used from the wrong thread.</source>
        <translation>内部错误：从错误的线程使用了数据库 %1。</translation>
    </message>
    <message>
        <source>prepare a query</source>
        <translation>准备查询</translation>
    </message>
    <message>
        <source>read the schema version</source>
        <translation>读取架构版本</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer qcode (schema %2; this qcode knows up to %3). Update qcode, or move the file aside to start afresh. The file was not changed.</source>
        <translation>数据库 %1 由更新版本的 qcode 写入（架构 %2；此 qcode 最高支持 %3）。请更新 qcode，或将该文件移到别处以重新开始。该文件未被改动。</translation>
    </message>
    <message>
        <source>read the schema</source>
        <translation>读取架构</translation>
    </message>
    <message>
        <source>configure the connection</source>
        <translation>配置连接</translation>
    </message>
    <message>
        <source>upgrade the schema to version %1</source>
        <translation>将架构升级到版本 %1</translation>
    </message>
    <message>
        <source>record the schema version</source>
        <translation>记录架构版本</translation>
    </message>
    <message>
        <source>start a transaction</source>
        <translation>开始事务</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>提交</translation>
    </message>
    <message>
        <source>save project %1</source>
        <translation>保存项目 %1</translation>
    </message>
    <message>
        <source>read project %1</source>
        <translation>读取项目 %1</translation>
    </message>
    <message>
        <source>look up the project of %1</source>
        <translation>查找 %1 所属的项目</translation>
    </message>
    <message>
        <source>Session %1 has damaged data in the database.</source>
        <translation>会话 %1 在数据库中的数据已损坏。</translation>
    </message>
    <message>
        <source>save session %1</source>
        <translation>保存会话 %1</translation>
    </message>
    <message>
        <source>read session %1</source>
        <translation>读取会话 %1</translation>
    </message>
    <message>
        <source>list the sessions of project %1</source>
        <translation>列出项目 %1 的会话</translation>
    </message>
    <message>
        <source>list the child sessions of %1</source>
        <translation>列出 %1 的子会话</translation>
    </message>
    <message>
        <source>find the child sessions of %1</source>
        <translation>查找 %1 的子会话</translation>
    </message>
    <message>
        <source>delete session %1</source>
        <translation>删除会话 %1</translation>
    </message>
    <message>
        <source>save message %1</source>
        <translation>保存消息 %1</translation>
    </message>
    <message>
        <source>save part %1</source>
        <translation>保存部分 %1</translation>
    </message>
    <message>
        <source>delete message %1</source>
        <translation>删除消息 %1</translation>
    </message>
    <message>
        <source>delete part %1</source>
        <translation>删除部分 %1</translation>
    </message>
    <message>
        <source>Message %1 has damaged data in the database.</source>
        <translation>消息 %1 在数据库中的数据已损坏。</translation>
    </message>
    <message>
        <source>read parts</source>
        <translation>读取消息部分</translation>
    </message>
    <message>
        <source>Part %1 has damaged data in the database.</source>
        <translation>部分 %1 在数据库中的数据已损坏。</translation>
    </message>
    <message>
        <source>read message %1</source>
        <translation>读取消息 %1</translation>
    </message>
    <message>
        <source>read the messages of session %1</source>
        <translation>读取会话 %1 的消息</translation>
    </message>
    <message>
        <source>save the todo list of %1</source>
        <translation>保存 %1 的待办列表</translation>
    </message>
    <message>
        <source>read the todo list of %1</source>
        <translation>读取 %1 的待办列表</translation>
    </message>
    <message>
        <source>read the permission rules of %1</source>
        <translation>读取 %1 的权限规则</translation>
    </message>
    <message>
        <source>The saved permission rules of project %1 are damaged.</source>
        <translation>项目 %1 已保存的权限规则已损坏。</translation>
    </message>
    <message>
        <source>save the permission rules of %1</source>
        <translation>保存 %1 的权限规则</translation>
    </message>
    <message>
        <source>read messages</source>
        <translation>读取消息</translation>
    </message>
    <message>
        <source>read the usage of session %1</source>
        <translation>读取会话 %1 的用量</translation>
    </message>
    <message>
        <source>list the sessions</source>
        <translation>列出会话</translation>
    </message>
    <message>
        <source>add message %1</source>
        <translation>添加消息 %1</translation>
    </message>
    <message>
        <source>add part %1</source>
        <translation>添加部分 %1</translation>
    </message>
    <message>
        <source>read part %1</source>
        <translation>读取部分 %1</translation>
    </message>
    <message>
        <source>add session %1</source>
        <translation>添加会话 %1</translation>
    </message>
    <message>
        <source>read unfinished tool parts</source>
        <translation>读取未完成的工具部分</translation>
    </message>
</context>
<context>
    <name>ToolBody</name>
    <message>
        <source>Stopped when it exceeded its timeout of %1.</source>
        <translation>超过 %1 的超时时间后已停止。</translation>
    </message>
    <message>
        <source>Stopped by you.</source>
        <translation>已被你停止。</translation>
    </message>
    <message>
        <source>(no answer)</source>
        <translation>（无回答）</translation>
    </message>
    <message>
        <source>[Old tool result content cleared]</source>
        <translation>[旧的工具结果内容已清除]</translation>
    </message>
    <message>
        <source>Output shortened for the model; the whole of it is in %1.</source>
        <translation>已为模型缩短输出；完整内容在 %1 中。</translation>
    </message>
    <message>
        <source>Output shortened for the model.</source>
        <translation>已为模型缩短输出。</translation>
    </message>
    <message>
        <source>Exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>Ended by a signal</source>
        <translation>被信号终止</translation>
    </message>
</context>
<context>
    <name>ToolPresentation</name>
    <message>
        <source>Update the to-do list</source>
        <translation>更新待办列表</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>读取待办列表</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>Read a file</source>
        <translation>读取文件</translation>
    </message>
    <message>
        <source>lines %1–%2</source>
        <translation>第 %1–%2 行</translation>
    </message>
    <message>
        <source>from line %1</source>
        <translation>从第 %1 行起</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
    <message>
        <source>Read %1</source>
        <translation>读取 %1</translation>
    </message>
    <message>
        <source>Write a file</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <source>new file</source>
        <translation>新文件</translation>
    </message>
    <message>
        <source>Write %1</source>
        <translation>写入 %1</translation>
    </message>
    <message>
        <source>Edit a file</source>
        <translation>编辑文件</translation>
    </message>
    <message>
        <source>every occurrence</source>
        <translation>所有匹配项</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <source>Apply a patch</source>
        <translation>应用补丁</translation>
    </message>
    <message>
        <source>Patch %1</source>
        <translation>修补 %1</translation>
    </message>
    <message numerus="yes">
        <source>Patch %n file(s)</source>
        <translation>
            <numerusform>修补 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source> in %1</source>
        <translation>（位于 %1）</translation>
    </message>
    <message>
        <source>Find files</source>
        <translation>查找文件</translation>
    </message>
    <message numerus="yes">
        <source>first %n file(s)</source>
        <translation>
            <numerusform>前 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Find files %1</source>
        <translation>查找文件 %1</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 处匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Search for %1</source>
        <translation>搜索 %1</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>在 %1 中</translation>
    </message>
    <message>
        <source>List a folder</source>
        <translation>列出文件夹</translation>
    </message>
    <message>
        <source>List the project folder</source>
        <translation>列出项目文件夹</translation>
    </message>
    <message>
        <source>List %1</source>
        <translation>列出 %1</translation>
    </message>
    <message>
        <source>Fetch a web page</source>
        <translation>获取网页</translation>
    </message>
    <message>
        <source>Fetch %1</source>
        <translation>获取 %1</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Task: %1</source>
        <translation>任务：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n done</source>
        <translation>
            <numerusform>已完成 %1/%n</numerusform>
        </translation>
    </message>
    <message>
        <source>Ask a question</source>
        <translation>提问</translation>
    </message>
    <message numerus="yes">
        <source>Ask %n question(s)</source>
        <translation>
            <numerusform>提出 %n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <source>Invalid tool call</source>
        <translation>无效的工具调用</translation>
    </message>
    <message>
        <source>Invalid call of %1</source>
        <translation>对 %1 的调用无效</translation>
    </message>
    <message>
        <source>Unnamed tool</source>
        <translation>未命名工具</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
</context>
<context>
    <name>ToolStatus</name>
    <message>
        <source>%1m %2s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1h %2m</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation>运行中 %1</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Done in %1</source>
        <translation>完成，用时 %1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>TransferArgumentParser</name>
    <message>
        <source>Missing %1.</source>
        <translation>缺少%1。</translation>
    </message>
    <message>
        <source>Expected one %1, got %2: %3.</source>
        <translation>应有一个%1，实际得到 %2 个：%3。</translation>
    </message>
    <message>
        <source>session id</source>
        <translation>会话 ID</translation>
    </message>
    <message>
        <source>--format "%1" is not one of: json, markdown.</source>
        <translation>--format “%1”不是以下之一：json、markdown。</translation>
    </message>
    <message>
        <source>file to import</source>
        <translation>要导入的文件</translation>
    </message>
    <message>
        <source>Unexpected argument: %1.</source>
        <translation>意外的参数：%1。</translation>
    </message>
    <message>
        <source>Usage: qcode export [options] &lt;sessionID&gt;

Writes one stored session with all its messages and parts, without opening a window.
The id may be shortened to any beginning of it that names one session (`qcode sessions`
lists them).

Options:
  --format json|markdown    json: OpenCode's export shape, as `opencode export` prints it,
                            for `qcode import` or `opencode import`. markdown: a document
                            to read. Default: json, or markdown when --output ends in .md.
  -o, --output FILE         Write to FILE, replaced whole or not at all, instead of
                            standard output.
  -h, --help                Show this help.

Exit status: 0 when written, 1 when the session or the database cannot be read or the
file cannot be written, 2 for bad arguments.
Data follows XDG_DATA_HOME, or the data folder chosen in Settings; QCODE_DATA_DIR
overrides both.
</source>
        <translation>用法：qcode export [选项] &lt;会话ID&gt;

不打开窗口，写出一个已保存的会话及其所有消息和部分。
ID 可以缩短为任何只对应一个会话的开头部分（`qcode sessions` 会列出它们）。

选项：
  --format json|markdown    json：OpenCode 的导出格式，与 `opencode export` 输出的相同，
                            可用于 `qcode import` 或 `opencode import`。markdown：
                            供阅读的文档。默认：json；--output 以 .md 结尾时为 markdown。
  -o, --output FILE         写入 FILE 而不是标准输出；文件要么整个被替换，要么不变。
  -h, --help                显示此帮助。

退出状态：写出时为 0，无法读取会话或数据库、或无法写入文件时为 1，
参数错误时为 2。
数据遵循 XDG_DATA_HOME 或在设置中选择的数据文件夹；QCODE_DATA_DIR
优先于两者。
</translation>
    </message>
    <message>
        <source>Usage: qcode import [options] &lt;FILE&gt;

Adds a session from an export file (OpenCode's export JSON, as `qcode export` or
`opencode export` writes it) to the database, and prints its id and title.
FILE - reads the export from standard input. A file that is not a valid export, or a
session that is already here, changes nothing.

Options:
  -h, --help                Show this help.

Exit status: 0 when imported, 1 when the file cannot be read or imported, 2 for bad
arguments.
Data follows XDG_DATA_HOME, or the data folder chosen in Settings; QCODE_DATA_DIR
overrides both.
</source>
        <translation>用法：qcode import [选项] &lt;文件&gt;

将导出文件中的会话（OpenCode 的导出 JSON，由 `qcode export` 或
`opencode export` 写出）添加到数据库，并输出其 ID 和标题。
文件为 - 时从标准输入读取导出内容。不是有效导出的文件，或已存在的会话，
不会做任何更改。

选项：
  -h, --help                显示此帮助。

退出状态：导入成功时为 0，无法读取或导入文件时为 1，参数错误时为 2。
数据遵循 XDG_DATA_HOME 或在设置中选择的数据文件夹；QCODE_DATA_DIR
优先于两者。
</translation>
    </message>
    <message>
        <source>Usage: qcode sessions [options]

Lists the stored sessions, most recently updated first: id, last update, title.
Sessions that subagents ran inside another are left out.

Options:
  --dir DIR                 Only the sessions started in DIR or a folder inside it.
  -h, --help                Show this help.

Exit status: 0 when listed, 1 when the database cannot be read, 2 for bad arguments.
</source>
        <translation>用法：qcode sessions [选项]

列出已保存的会话，最近更新的在前：ID、最后更新时间、标题。
子智能体在其他会话中运行的会话不列出。

选项：
  --dir DIR                 只列出在 DIR 或其中的文件夹里开始的会话。
  -h, --help                显示此帮助。

退出状态：列出时为 0，无法读取数据库时为 1，参数错误时为 2。
</translation>
    </message>
</context>
<context>
    <name>TransferCommand</name>
    <message>
        <source>Try `qcode %1 --help`.</source>
        <translation>请尝试 `qcode %1 --help`。</translation>
    </message>
    <message>
        <source>Session not found: %1. There is no database at %2 yet.</source>
        <translation>未找到会话：%1。%2 处还没有数据库。</translation>
    </message>
    <message>
        <source>Cannot write to standard output.</source>
        <translation>无法写入标准输出。</translation>
    </message>
    <message>
        <source>The session %1 was imported, but standard output cannot be written.</source>
        <translation>会话 %1 已导入，但无法写入标准输出。</translation>
    </message>
    <message>
        <source>standard input</source>
        <translation>标准输入</translation>
    </message>
    <message>
        <source>%1 is a folder, not a session export.</source>
        <translation>%1 是文件夹，不是会话导出文件。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read standard input.</source>
        <translation>无法读取标准输入。</translation>
    </message>
    <message>
        <source>%1 is too large to be a session export (more than %2 MB).</source>
        <translation>%1 太大，不可能是会话导出文件（超过 %2 MB）。</translation>
    </message>
    <message>
        <source>Unknown command "%1".</source>
        <translation>未知命令“%1”。</translation>
    </message>
</context>
<context>
    <name>UserConfigWriter</name>
    <message>
        <source>The permission %1 for “%2” must be "allow", "ask" or "deny".</source>
        <translation>“%2”的权限 %1 必须是 "allow"、"ask" 或 "deny"。</translation>
    </message>
    <message>
        <source>The permission %1 must be "allow", "ask" or "deny", or a map of patterns to those.</source>
        <translation>权限 %1 必须是 "allow"、"ask" 或 "deny"，或者是由模式映射到这些值的映射。</translation>
    </message>
    <message>
        <source>%1 cannot be read (%2), so qcode has not changed it.</source>
        <translation>无法读取 %1（%2），因此 qcode 未修改它。</translation>
    </message>
    <message>
        <source>%1 has comments or trailing commas (line %2). qcode rewrites this file and would lose them, so it has not changed it; remove them, or keep hand-written settings in opencode.jsonc.</source>
        <translation>%1 含有注释或尾随逗号（第 %2 行）。qcode 会重写此文件并丢失它们，因此未修改它；请删除它们，或将手写的设置放在 opencode.jsonc 中。</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 at line %3, column %4. qcode has not changed it; correct the file, then try again.</source>
        <translation>%1 不是有效的 JSON：%2（第 %3 行，第 %4 列）。qcode 未修改它；请更正该文件后重试。</translation>
    </message>
    <message>
        <source>%1 must hold a JSON object { … }; qcode has not changed it.</source>
        <translation>%1 必须包含一个 JSON 对象 { … }；qcode 未修改它。</translation>
    </message>
    <message>
        <source>In %1, "%2" is not an object; qcode has not changed the file. Correct or remove that entry, then try again.</source>
        <translation>在 %1 中，"%2" 不是对象；qcode 未修改该文件。请更正或删除该条目后重试。</translation>
    </message>
    <message>
        <source>The folder %1 cannot be created, so the settings were not saved.</source>
        <translation>无法创建文件夹 %1，因此设置未保存。</translation>
    </message>
    <message>
        <source>%1 cannot be written (%2); the settings were not saved.</source>
        <translation>无法写入 %1（%2）；设置未保存。</translation>
    </message>
    <message>
        <source>“%1” is not a model; write it as provider/model, such as anthropic/claude-sonnet-4-5.</source>
        <translation>“%1”不是模型；请写成 provider/model 形式，例如 anthropic/claude-sonnet-4-5。</translation>
    </message>
    <message>
        <source>“%1” is not a model; write it as provider/model, such as anthropic/claude-haiku-4-5.</source>
        <translation>“%1”不是模型；请写成 provider/model 形式，例如 anthropic/claude-haiku-4-5。</translation>
    </message>
    <message>
        <source>The default agent needs a name.</source>
        <translation>默认智能体需要一个名称。</translation>
    </message>
    <message>
        <source>A permission needs a name, such as edit or bash.</source>
        <translation>权限需要一个名称，例如 edit 或 bash。</translation>
    </message>
    <message>
        <source>%1 defines no provider “%2”; it may have been removed already.</source>
        <translation>%1 中没有定义提供商“%2”；它可能已被移除。</translation>
    </message>
</context>
<context>
    <name>UserMessageBuilder</name>
    <message>
        <source>The message id is not valid: %1</source>
        <translation>消息 ID 无效：%1</translation>
    </message>
    <message>
        <source>A part id is not valid: %1</source>
        <translation>部分 ID 无效：%1</translation>
    </message>
    <message>
        <source>The part id %1 is given twice.</source>
        <translation>部分 ID %1 出现了两次。</translation>
    </message>
    <message>
        <source>No agent is chosen and there is no default agent.</source>
        <translation>未选择智能体，且没有默认智能体。</translation>
    </message>
    <message>
        <source>No model is chosen: pick a model or configure a default one.</source>
        <translation>未选择模型：请选择一个模型或配置默认模型。</translation>
    </message>
</context>
<context>
    <name>YamlReader</name>
    <message>
        <source>this line does not fit the structure above it</source>
        <translation>此行与上方的结构不符</translation>
    </message>
    <message>
        <source>a quoted value is never closed</source>
        <translation>带引号的值没有闭合</translation>
    </message>
    <message>
        <source>a tab is used for indentation; YAML indents with spaces</source>
        <translation>使用了制表符缩进；YAML 用空格缩进</translation>
    </message>
    <message>
        <source>a [ or { is never closed</source>
        <translation>[ 或 { 没有闭合</translation>
    </message>
    <message>
        <source>an unknown escape \%1 in a double-quoted value</source>
        <translation>双引号值中有未知的转义 \%1</translation>
    </message>
    <message>
        <source>": " cannot stand here: the line is indented too far, or a value that contains ": " needs quotes</source>
        <translation>此处不能出现“: ”：该行缩进过多，或包含“: ”的值需要加引号</translation>
    </message>
    <message>
        <source>this is not valid YAML (%1)</source>
        <translation>这不是有效的 YAML（%1）</translation>
    </message>
    <message>
        <source>YAML anchors (&amp;), aliases (*) and tags (!) are not supported in front matter; put a text that starts with one of them in quotes</source>
        <translation>前置元数据不支持 YAML 锚点（&amp;）、别名（*）和标签（!）；以它们开头的文本请加引号</translation>
    </message>
    <message>
        <source>the values are nested too deeply</source>
        <translation>值嵌套过深</translation>
    </message>
    <message>
        <source>a key must be a plain text, not a list or a map</source>
        <translation>键必须是纯文本，不能是列表或映射</translation>
    </message>
    <message>
        <source>a key must be a plain text</source>
        <translation>键必须是纯文本</translation>
    </message>
    <message>
        <source>the key "%1" is given twice</source>
        <translation>键“%1”出现了两次</translation>
    </message>
    <message>
        <source>expected a "key: value" line, found "%1"</source>
        <translation>应为“键: 值”行，却是“%1”</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Project folder to open.</source>
        <translation>要打开的项目文件夹。</translation>
    </message>
    <message>
        <source>qcode cannot start</source>
        <translation>qcode 无法启动</translation>
    </message>
    <message>
        <source>qcode — a desktop coding agent.

Commands (each has --help):
  qcode run [message…]  Answer one message without a window, on the
                        terminal.
  qcode export ID       Write a session as OpenCode's export JSON or
                        as Markdown.
  qcode import FILE     Add a session from an export file.
  qcode sessions        List the stored sessions.

Environment: QCODE_DATA_DIR overrides where the database lives.</source>
        <translation>qcode —— 桌面编程智能体。

命令（均支持 --help）：
  qcode run [消息…]     不打开窗口，在终端中回答一条消息。
  qcode export ID       将会话写出为 OpenCode 的导出 JSON 或 Markdown。
  qcode import FILE     从导出文件添加会话。
  qcode sessions        列出已保存的会话。

环境变量：QCODE_DATA_DIR 指定数据库所在的位置。</translation>
    </message>
    <message>
        <source>Open a window of its own even when qcode is already running (by default the folder opens in the running window).</source>
        <translation>即使 qcode 已在运行，也打开一个独立的窗口（默认在运行中的窗口里打开该文件夹）。</translation>
    </message>
</context>
<context>
    <name>qcode::AgentPicker</name>
    <message>
        <source>No agent</source>
        <translation>无智能体</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Agent for the next prompt: %1 (Ctrl+. and Ctrl+Shift+. in the prompt switch agents)</source>
        <translation>下一条提示的智能体：%1（在提示框中按 Ctrl+. 和 Ctrl+Shift+. 切换智能体）</translation>
    </message>
</context>
<context>
    <name>qcode::AttachmentChip</name>
    <message>
        <source>Attachment: %1</source>
        <translation>附件：%1</translation>
    </message>
    <message>
        <source>Remove %1 (Delete)</source>
        <translation>移除 %1（Delete）</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
</context>
<context>
    <name>qcode::ChatView</name>
    <message>
        <source>Jump to latest</source>
        <translation>跳到最新</translation>
    </message>
    <message>
        <source>Scroll to the newest message (%1)</source>
        <translation>滚动到最新消息（%1）</translation>
    </message>
</context>
<context>
    <name>qcode::CompactionDivider</name>
    <message>
        <source>Earlier messages summarised here</source>
        <translation>之前的消息已在此处汇总</translation>
    </message>
    <message>
        <source>The conversation grew too long for the model, so it was summarised; the model reads the summary below instead of the messages above it.</source>
        <translation>对话对模型来说过长，因此已被汇总；模型将阅读下方的摘要，而不是上方的消息。</translation>
    </message>
    <message>
        <source>You asked for a summary; the model reads the summary below instead of the messages above it.</source>
        <translation>你请求了汇总；模型将阅读下方的摘要，而不是上方的消息。</translation>
    </message>
</context>
<context>
    <name>qcode::CompactionRun</name>
    <message>
        <source>Compaction is not set up.</source>
        <translation>压缩尚未设置。</translation>
    </message>
    <message>
        <source>The compaction request %1 is not a user message of session %2.</source>
        <translation>压缩请求 %1 不是会话 %2 中的用户消息。</translation>
    </message>
    <message>
        <source>Conversation history too large to compact - exceeds model context limit</source>
        <translation>对话历史过大，无法压缩——超出了模型的上下文上限</translation>
    </message>
    <message>
        <source>Session too large to compact - context exceeds model limit even after stripping media</source>
        <translation>会话过大，无法压缩——即使去掉媒体，上下文仍超出模型上限</translation>
    </message>
</context>
<context>
    <name>qcode::CompatibleProviderForm</name>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI 兼容服务器</translation>
    </message>
    <message>
        <source>my-server</source>
        <translation>my-server</translation>
    </message>
    <message>
        <source>My Server</source>
        <translation>My Server</translation>
    </message>
    <message>
        <source>http://127.0.0.1:8000/v1</source>
        <translation>http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <source>Model ids, separated by commas</source>
        <translation>模型 ID，以逗号分隔</translation>
    </message>
    <message>
        <source>Test Connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>&amp;Id:</source>
        <translation>ID(&amp;I)：</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API 密钥(&amp;K)：</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation>
            <numerusform>已连接：%n 个模型。</numerusform>
        </translation>
    </message>
    <message>
        <source>Their ids are filled in under Models.</source>
        <translation>它们的 ID 已填入“模型”中。</translation>
    </message>
    <message>
        <source>A key is saved in the system keychain; paste another to replace it</source>
        <translation>已有密钥保存在系统钥匙串中；粘贴新密钥即可替换</translation>
    </message>
    <message>
        <source>Optional; kept in the system keychain</source>
        <translation>可选；保存在系统钥匙串中</translation>
    </message>
    <message>
        <source>Asking %1 for its models…</source>
        <translation>正在向 %1 查询其模型…</translation>
    </message>
    <message>
        <source>“%1” is one of qcode's built-in providers; give this server another id, such as %1-proxy.</source>
        <translation>“%1”是 qcode 的内置提供商之一；请为此服务器指定其他 ID，例如 %1-proxy。</translation>
    </message>
    <message>
        <source>Saved %1 to %2; its models are named %3/&lt;model&gt;.</source>
        <translation>已将 %1 保存到 %2；其模型命名为 %3/&lt;model&gt;。</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>没有可用的系统钥匙串。</translation>
    </message>
    <message>
        <source>Saving its key in the system keychain…</source>
        <translation>正在将其密钥保存到系统钥匙串…</translation>
    </message>
    <message>
        <source>Its key is in the system keychain.</source>
        <translation>其密钥已保存在系统钥匙串中。</translation>
    </message>
    <message>
        <source>Removed %1 from %2.</source>
        <translation>已从 %2 中移除 %1。</translation>
    </message>
</context>
<context>
    <name>qcode::ConfigErrorBanner</name>
    <message>
        <source>No prompt runs in this project until its configuration is fixed:</source>
        <translation>在修正配置之前，此项目中不会运行任何提示：</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more.</source>
        <translation>
            <numerusform>……还有 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Read the configuration again</source>
        <translation>重新读取配置</translation>
    </message>
</context>
<context>
    <name>qcode::ConnectionTester</name>
    <message numerus="yes">
        <source>%1 did not answer within %n second(s).</source>
        <translation>
            <numerusform>%1 在 %n 秒内没有响应。</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not reach %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <source>%1 answered, but not with a list of models. Is the base URL the API root (it usually ends in /v1)?</source>
        <translation>%1 有响应，但返回的不是模型列表。基础 URL 是否为 API 根地址（通常以 /v1 结尾）？</translation>
    </message>
    <message>
        <source>%1 answered with HTTP status %2.</source>
        <translation>%1 返回了 HTTP 状态 %2。</translation>
    </message>
    <message>
        <source>%1 answered with HTTP status %2: %3</source>
        <translation>%1 返回了 HTTP 状态 %2：%3</translation>
    </message>
    <message>
        <source>Check the API key.</source>
        <translation>请检查 API 密钥。</translation>
    </message>
    <message>
        <source>Check the base URL; it usually ends in /v1.</source>
        <translation>请检查基础 URL；它通常以 /v1 结尾。</translation>
    </message>
</context>
<context>
    <name>qcode::ContextMeter</name>
    <message>
        <source>Context: %1 of %2 tokens (%3%)
Session cost: $%4</source>
        <translation>上下文：%1 / %2 个 token（%3%）
会话费用：$%4</translation>
    </message>
    <message>
        <source>Context: %1 tokens
Session cost: $%2</source>
        <translation>上下文：%1 个 token
会话费用：$%2</translation>
    </message>
    <message>
        <source>%1 / %2 · %3</source>
        <translation>%1 / %2 · %3</translation>
    </message>
    <message>
        <source>%1 tokens · %2</source>
        <translation>%1 个 token · %2</translation>
    </message>
</context>
<context>
    <name>qcode::DataPage</name>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>更改…</translation>
    </message>
    <message>
        <source>Use the Default</source>
        <translation>使用默认值</translation>
    </message>
    <message>
        <source>Location:</source>
        <translation>位置：</translation>
    </message>
    <message>
        <source>Database:</source>
        <translation>数据库：</translation>
    </message>
    <message>
        <source>Saved tool output:</source>
        <translation>已保存的工具输出：</translation>
    </message>
    <message>
        <source>Snapshots:</source>
        <translation>快照：</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1，位于 %2</translation>
    </message>
    <message>
        <source>%1 does not exist and cannot be created.</source>
        <translation>%1 不存在且无法创建。</translation>
    </message>
    <message>
        <source>No file manager opened %1.</source>
        <translation>没有文件管理器打开 %1。</translation>
    </message>
    <message>
        <source>Choose the Data Folder</source>
        <translation>选择数据文件夹</translation>
    </message>
    <message>
        <source>Choose a full path for the data folder, not %1.</source>
        <translation>请为数据文件夹选择完整路径，而不是 %1。</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation>%1 是文件，而不是文件夹。</translation>
    </message>
    <message>
        <source>QCODE_DATA_DIR is set, so qcode uses that folder whatever is chosen here.</source>
        <translation>已设置 QCODE_DATA_DIR，因此无论此处选择什么，qcode 都会使用该文件夹。</translation>
    </message>
    <message>
        <source>From its next start qcode keeps its data in %1. What is in %2 stays there; move it yourself to keep your sessions.</source>
        <translation>下次启动起，qcode 会将数据保存在 %1 中。%2 中的内容会保留在原处；如需保留会话，请自行移动。</translation>
    </message>
    <message>
        <source>From its next start qcode keeps its data in the default folder, %1.</source>
        <translation>下次启动起，qcode 会将数据保存在默认文件夹 %1 中。</translation>
    </message>
</context>
<context>
    <name>qcode::DiffView</name>
    <message>
        <source>Show the whole diff</source>
        <translation>显示完整差异</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>并排</translation>
    </message>
    <message>
        <source>Show the old and the new text side by side</source>
        <translation>并排显示旧文本和新文本</translation>
    </message>
    <message numerus="yes">
        <source>+%1 −%2 in %n file(s)</source>
        <translation>
            <numerusform>+%1 −%2，共 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This diff has %n line(s); it is not shown until you ask for it.</source>
        <translation>
            <numerusform>此差异有 %n 行；在你要求之前不会显示。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::Engine</name>
    <message>
        <source>The database is not open.</source>
        <translation>数据库未打开。</translation>
    </message>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>会话 %1 不存在。</translation>
    </message>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>未找到智能体："%1"。</translation>
    </message>
    <message>
        <source>Session %1 is being reverted; send the prompt again when it is done.</source>
        <translation>会话 %1 正在撤销；完成后请重新发送提示词。</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>Session %1 is busy: wait for it to finish or stop it, then retry.</source>
        <translation>会话 %1 正忙：请等待其完成或将其停止，然后重试。</translation>
    </message>
    <message>
        <source>Session %1 has no prompt to retry.</source>
        <translation>会话 %1 没有可重试的提示词。</translation>
    </message>
    <message>
        <source>Session %1 has nothing to retry: its last prompt was answered.</source>
        <translation>会话 %1 没有可重试的内容：其最后一条提示词已得到回答。</translation>
    </message>
    <message>
        <source>Session %1 is busy: wait for it to finish or stop it, then run the command again.</source>
        <translation>会话 %1 正忙：请等待其完成或将其停止，然后再次运行该命令。</translation>
    </message>
    <message>
        <source>Session %1 cannot be forked: it does not exist.</source>
        <translation>无法分叉会话 %1：它不存在。</translation>
    </message>
    <message>
        <source>%1 (fork)</source>
        <translation>%1（分叉）</translation>
    </message>
    <message>
        <source>A session's title cannot be empty.</source>
        <translation>会话标题不能为空。</translation>
    </message>
    <message>
        <source>Session %1 is busy: stop it or wait for it to finish, then undo again.</source>
        <translation>会话 %1 正忙：请将其停止或等待其完成，然后再次撤销。</translation>
    </message>
    <message>
        <source>There is nothing to compact in session %1.</source>
        <translation>会话 %1 中没有可压缩的内容。</translation>
    </message>
    <message>
        <source>Session %1 is being reverted; compact it when that is done.</source>
        <translation>会话 %1 正在撤销；请在完成后再压缩。</translation>
    </message>
</context>
<context>
    <name>qcode::FileChipWidget</name>
    <message>
        <source>Attachment</source>
        <translation>附件</translation>
    </message>
    <message>
        <source>%1 (%2)
Click to open</source>
        <translation>%1（%2）
点击打开</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>qcode::GeneralPage</name>
    <message>
        <source>Models and agent</source>
        <translation>模型和智能体</translation>
    </message>
    <message>
        <source>Automatic (the best model of a provider with a key)</source>
        <translation>自动（有密钥的提供商中最好的模型）</translation>
    </message>
    <message>
        <source>Automatic (a small model of the same provider)</source>
        <translation>自动（同一提供商的小模型）</translation>
    </message>
    <message>
        <source>Used for titles and summaries, where a fast, cheap model is enough.</source>
        <translation>用于生成标题和摘要，快速、廉价的模型即可胜任。</translation>
    </message>
    <message>
        <source>Automatic (%1)</source>
        <translation>自动（%1）</translation>
    </message>
    <message>
        <source>Default &amp;model:</source>
        <translation>默认模型(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Small model:</source>
        <translation>小模型(&amp;S)：</translation>
    </message>
    <message>
        <source>Default &amp;agent:</source>
        <translation>默认智能体(&amp;A)：</translation>
    </message>
    <message>
        <source>Appearance and language</source>
        <translation>外观和语言</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Notify me when a session finishes or needs an answer while qcode is in the background</source>
        <translation>qcode 在后台运行时，会话完成或需要回答时通知我</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>主题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Font size:</source>
        <translation>字体大小(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>This qcode has no %1 translation yet, so it stays in English; the choice is kept for a version that has one.</source>
        <translation>此版本的 qcode 尚无 %1 翻译，因此仍显示英文；该选择会保留，供日后有此翻译的版本使用。</translation>
    </message>
    <message>
        <source>Another config file sets the model to %1. A choice here wins over your global opencode.json, not over a project's own config.</source>
        <translation>另一个配置文件将模型设置为 %1。此处的选择优先于你的全局 opencode.json，但不优先于项目自身的配置。</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Saved: qcode picks the model.</source>
        <translation>已保存：由 qcode 选择模型。</translation>
    </message>
    <message>
        <source>Saved: %1 is the default.</source>
        <translation>已保存：%1 为默认模型。</translation>
    </message>
    <message>
        <source>Saved: the first agent is the default.</source>
        <translation>已保存：第一个智能体为默认智能体。</translation>
    </message>
    <message>
        <source>Saved: %1 is the default agent.</source>
        <translation>已保存：%1 为默认智能体。</translation>
    </message>
</context>
<context>
    <name>qcode::KeychainNotice</name>
    <message>
        <source>Keys are read from environment variables and the config because no system keychain is running.</source>
        <translation>由于系统钥匙串未运行，密钥从环境变量和配置中读取。</translation>
    </message>
    <message>
        <source>Close this notice</source>
        <translation>关闭此提示</translation>
    </message>
</context>
<context>
    <name>qcode::LocalServersBox</name>
    <message>
        <source>Servers on this computer</source>
        <translation>本机上的服务器</translation>
    </message>
    <message>
        <source>Double-click a server to edit it as a custom provider.</source>
        <translation>双击服务器即可将其作为自定义提供商进行编辑。</translation>
    </message>
    <message>
        <source>Search Again</source>
        <translation>重新搜索</translation>
    </message>
    <message>
        <source>Looking for model servers…</source>
        <translation>正在查找模型服务器…</translation>
    </message>
    <message>
        <source>Looking for %1…</source>
        <translation>正在查找 %1…</translation>
    </message>
    <message numerus="yes">
        <source>%1 at %2 — %n model(s)</source>
        <translation>
            <numerusform>%1，位于 %2 — %n 个模型</numerusform>
        </translation>
    </message>
    <message>
        <source>No model server answered on this computer. Start Ollama, LM Studio or llama.cpp and search again, or add any OpenAI-compatible server below.</source>
        <translation>本机上没有模型服务器响应。请启动 Ollama、LM Studio 或 llama.cpp 后重新搜索，或在下方添加任意 OpenAI 兼容服务器。</translation>
    </message>
    <message>
        <source>qcode offers their models without a key.</source>
        <translation>qcode 无需密钥即可提供它们的模型。</translation>
    </message>
</context>
<context>
    <name>qcode::MainWindow</name>
    <message>
        <source>qcode</source>
        <translation>qcode</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Project Folder…</source>
        <translation>打开项目文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a project folder (%1)</source>
        <translation>打开项目文件夹（%1）</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation>打开项目文件夹</translation>
    </message>
    <message>
        <source>qcode works inside one folder at a time: the agent reads and changes the files there, with your permission.</source>
        <translation>qcode 每次在一个文件夹中工作：智能体会在你的许可下读取和修改其中的文件。</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>打开文件夹…</translation>
    </message>
    <message>
        <source>Open Project Folder</source>
        <translation>打开项目文件夹</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 不是文件夹。</translation>
    </message>
    <message>
        <source>%1 — qcode</source>
        <translation>%1 — qcode</translation>
    </message>
    <message>
        <source>The conversation was summarized to fit the model's context.</source>
        <translation>对话已进行摘要，以适应模型的上下文。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation>新建会话(&amp;N)</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>开始新会话</translation>
    </message>
    <message>
        <source>&amp;Export Session…</source>
        <translation>导出会话(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the open session as Markdown or as OpenCode's JSON</source>
        <translation>将当前会话保存为 Markdown 或 OpenCode 的 JSON</translation>
    </message>
    <message>
        <source>&amp;Import Session…</source>
        <translation>导入会话(&amp;I)…</translation>
    </message>
    <message>
        <source>Add a session from an OpenCode or qcode JSON export</source>
        <translation>从 OpenCode 或 qcode 的 JSON 导出文件添加会话</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>Providers and keys, default model, theme, permissions</source>
        <translation>提供商和密钥、默认模型、主题、权限</translation>
    </message>
    <message>
        <source>Quit qcode</source>
        <translation>退出 qcode</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>Copy Session as &amp;Markdown</source>
        <translation>将会话复制为 Markdown(&amp;M)</translation>
    </message>
    <message>
        <source>Copy the whole conversation as Markdown</source>
        <translation>将整个对话复制为 Markdown</translation>
    </message>
    <message>
        <source>&amp;Find Session</source>
        <translation>查找会话(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the running turn</source>
        <translation>停止正在进行的这一轮</translation>
    </message>
    <message>
        <source>&amp;Compact</source>
        <translation>压缩(&amp;C)</translation>
    </message>
    <message>
        <source>Summarize the conversation so far to free the model's context</source>
        <translation>对目前的对话进行摘要，以释放模型的上下文</translation>
    </message>
    <message>
        <source>&amp;Undo Last Prompt</source>
        <translation>撤销上一条提示词(&amp;U)</translation>
    </message>
    <message>
        <source>Take back the last prompt and the file changes it made</source>
        <translation>撤回上一条提示词及其造成的文件更改</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Bring back what the last undo took back</source>
        <translation>恢复上一次撤销所撤回的内容</translation>
    </message>
    <message>
        <source>Re&amp;name</source>
        <translation>重命名(&amp;N)</translation>
    </message>
    <message>
        <source>Rename the open session</source>
        <translation>重命名当前会话</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>分叉(&amp;F)</translation>
    </message>
    <message>
        <source>A copy of the open session, to try another way</source>
        <translation>当前会话的副本，用于尝试另一种做法</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Delete the open session</source>
        <translation>删除当前会话</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Jump to &amp;Latest</source>
        <translation>跳到最新(&amp;L)</translation>
    </message>
    <message>
        <source>Scroll to the newest message</source>
        <translation>滚动到最新消息</translation>
    </message>
    <message>
        <source>Show &amp;Sessions</source>
        <translation>显示会话列表(&amp;S)</translation>
    </message>
    <message>
        <source>Show or hide the list of sessions</source>
        <translation>显示或隐藏会话列表</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Waiting to retry</source>
        <translation>等待重试</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>工作中…</translation>
    </message>
    <message>
        <source>Copying the session…</source>
        <translation>正在复制会话…</translation>
    </message>
    <message>
        <source>The session could not be copied: %1</source>
        <translation>无法复制会话：%1</translation>
    </message>
    <message>
        <source>The session is on the clipboard as Markdown.</source>
        <translation>会话已作为 Markdown 复制到剪贴板。</translation>
    </message>
    <message>
        <source>Export Session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>OpenCode export (*.json)</source>
        <translation>OpenCode 导出文件 (*.json)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <source>The session was not exported: %1</source>
        <translation>会话未导出：%1</translation>
    </message>
    <message>
        <source>Import Session</source>
        <translation>导入会话</translation>
    </message>
    <message>
        <source>Session exports (*.json)</source>
        <translation>会话导出文件 (*.json)</translation>
    </message>
    <message>
        <source>The session was not imported: %1</source>
        <translation>会话未导入：%1</translation>
    </message>
    <message>
        <source>Session imported.</source>
        <translation>会话已导入。</translation>
    </message>
    <message>
        <source>Session imported; it belongs to another project folder, where it is listed.</source>
        <translation>会话已导入；它属于另一个项目文件夹，会在那里列出。</translation>
    </message>
    <message>
        <source>Search the sessions by title and by what was said in them</source>
        <translation>按标题和对话内容搜索会话</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every key the window knows</source>
        <translation>窗口支持的所有按键</translation>
    </message>
    <message>
        <source>qcode &amp;Guide</source>
        <translation>qcode 指南(&amp;G)</translation>
    </message>
    <message>
        <source>Open qcode's README in the browser</source>
        <translation>在浏览器中打开 qcode 的 README</translation>
    </message>
    <message>
        <source>&amp;About qcode</source>
        <translation>关于 qcode(&amp;A)</translation>
    </message>
    <message>
        <source>Version and licence</source>
        <translation>版本和许可证</translation>
    </message>
    <message>
        <source>About qcode</source>
        <translation>关于 qcode</translation>
    </message>
    <message>
        <source>&lt;h3&gt;qcode %1&lt;/h3&gt;&lt;p&gt;A desktop coding agent: it reads and changes the files of one project folder, with your permission.&lt;/p&gt;&lt;p&gt;&lt;a href="%2"&gt;%2&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;qcode %1&lt;/h3&gt;&lt;p&gt;桌面编程智能体：在您的许可下读取和修改一个项目文件夹中的文件。&lt;/p&gt;&lt;p&gt;&lt;a href="%2"&gt;%2&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>qcode::MessageWidget</name>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Run this step again</source>
        <translation>再次运行此步骤</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>%1 · %2 (%3)</source>
        <translation>%1 · %2（%3）</translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out</source>
        <translation>Token：输入 %1，输出 %2</translation>
    </message>
    <message>
        <source>Reasoning: %1</source>
        <translation>推理：%1</translation>
    </message>
    <message>
        <source>Cache: %1 read, %2 written</source>
        <translation>缓存：读取 %1，写入 %2</translation>
    </message>
    <message>
        <source>Cost: $%1</source>
        <translation>费用：$%1</translation>
    </message>
    <message>
        <source>Took %1 s</source>
        <translation>用时 %1 秒</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy &amp;Message</source>
        <translation>复制消息(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Fork From Here</source>
        <translation>从此处分叉(&amp;F)</translation>
    </message>
    <message>
        <source>A new session with the conversation up to this message</source>
        <translation>以截至此消息的对话创建新会话</translation>
    </message>
    <message>
        <source>&amp;Undo From Here</source>
        <translation>从此处撤销(&amp;U)</translation>
    </message>
    <message>
        <source>Put the files back as they were before this message and hide what followed</source>
        <translation>将文件恢复到此消息之前的状态，并隐藏之后的内容</translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <source>Check or replace the provider's key</source>
        <translation>检查或更换提供商的密钥</translation>
    </message>
    <message>
        <source>Summary of the earlier conversation</source>
        <translation>之前对话的摘要</translation>
    </message>
    <message>
        <source>What the model was told of the messages above the divider; click to show or hide it</source>
        <translation>模型得知的分隔线上方消息的内容；点击显示或隐藏</translation>
    </message>
</context>
<context>
    <name>qcode::ModelComboBox</name>
    <message>
        <source>provider/model</source>
        <translation>provider/model</translation>
    </message>
</context>
<context>
    <name>qcode::ModelPicker</name>
    <message>
        <source>Choose a model</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>Model: %1 (%2/%3). Change it: %4</source>
        <translation>模型：%1（%2/%3）。更改：%4</translation>
    </message>
    <message>
        <source>Choose the model for the next prompt (%1)</source>
        <translation>选择下一条提示词使用的模型（%1）</translation>
    </message>
</context>
<context>
    <name>qcode::ModelPopup</name>
    <message>
        <source>Search models</source>
        <translation>搜索模型</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>qcode::NetworkBox</name>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>From the environment or the system</source>
        <translation>来自环境变量或系统</translation>
    </message>
    <message>
        <source>None (SSL_CERT_FILE and NODE_EXTRA_CA_CERTS still apply)</source>
        <translation>无（SSL_CERT_FILE 和 NODE_EXTRA_CA_CERTS 仍然生效）</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Proxy:</source>
        <translation>代理(&amp;P)：</translation>
    </message>
    <message>
        <source>Extra &amp;certificates:</source>
        <translation>额外证书(&amp;C)：</translation>
    </message>
    <message>
        <source>A proxy here (http://user:password@proxy.example.com:3128) is used for every request; with none, https_proxy, http_proxy, all_proxy and no_proxy apply, then the system's settings. Extra certificates are a PEM file of authorities added to the system's, for networks that inspect TLS. A proxy applies from the next start.</source>
        <translation>此处设置的代理（http://用户:密码@proxy.example.com:3128）用于每个请求；未设置时依次使用 https_proxy、http_proxy、all_proxy 和 no_proxy，然后是系统设置。额外证书是一个 PEM 格式的证书颁发机构文件，会添加到系统证书中，用于检查 TLS 的网络。代理从下次启动起生效。</translation>
    </message>
    <message>
        <source>"%1" is not a proxy address like http://proxy.example.com:3128.</source>
        <translation>“%1”不是类似 http://proxy.example.com:3128 的代理地址。</translation>
    </message>
    <message>
        <source>The proxy applies from the next start.</source>
        <translation>代理从下次启动起生效。</translation>
    </message>
    <message>
        <source>These certificates cannot be used: %1</source>
        <translation>无法使用这些证书：%1</translation>
    </message>
    <message>
        <source>The certificates are trusted now and at every start.</source>
        <translation>从现在起及每次启动时都信任这些证书。</translation>
    </message>
    <message>
        <source>Extra certificate authorities</source>
        <translation>额外的证书颁发机构</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>PEM 证书 (*.pem *.crt *.cer);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>qcode::NetworkSetup</name>
    <message>
        <source>The proxy "%1" set in Settings is not an address like http://proxy.example.com:3128; no proxy is used.</source>
        <translation>设置中的代理“%1”不是类似 http://proxy.example.com:3128 的地址；不使用代理。</translation>
    </message>
    <message>
        <source>The certificates named by %1 were not added: %2</source>
        <translation>%1 指定的证书未被添加：%2</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>%1 holds no PEM certificate</source>
        <translation>%1 中没有 PEM 证书</translation>
    </message>
    <message>
        <source>this build of Qt has no TLS support</source>
        <translation>此 Qt 版本不支持 TLS</translation>
    </message>
</context>
<context>
    <name>qcode::NoProviderBanner</name>
    <message>
        <source>No model can answer yet, so nothing was sent. Connect a provider (or start a local model server), then send again: your prompt is still here.</source>
        <translation>目前还没有模型可以回答，因此没有发送任何内容。请连接一个提供商（或启动本地模型服务器），然后重新发送：您的提示仍在这里。</translation>
    </message>
    <message>
        <source>No provider is connected yet. Add an API key or use a model server running on this computer, and qcode can start answering.</source>
        <translation>尚未连接任何提供商。添加 API 密钥或使用本机上运行的模型服务器后，qcode 即可开始回答。</translation>
    </message>
    <message>
        <source>Connect a provider…</source>
        <translation>连接提供商…</translation>
    </message>
    <message>
        <source>Open Settings at the Providers page</source>
        <translation>打开设置中的“提供商”页面</translation>
    </message>
</context>
<context>
    <name>qcode::NoteWidget</name>
    <message numerus="yes">
        <source>Changed %n file(s): %1</source>
        <translation>
            <numerusform>已更改 %n 个文件：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> 等另外 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>The conversation was summarized to fit the model's context.</source>
        <translation>对话已进行摘要，以适应模型的上下文。</translation>
    </message>
    <message>
        <source>Summarize the conversation so far.</source>
        <translation>对目前的对话进行摘要。</translation>
    </message>
    <message>
        <source>Attempt %1 failed; retried.</source>
        <translation>第 %1 次尝试失败；已重试。</translation>
    </message>
    <message>
        <source>Attempt %1 failed (%2); retried.</source>
        <translation>第 %1 次尝试失败（%2）；已重试。</translation>
    </message>
    <message>
        <source>Subtask for @%1: %2</source>
        <translation>@%1 的子任务：%2</translation>
    </message>
    <message>
        <source>Mentioned agent @%1</source>
        <translation>提及了智能体 @%1</translation>
    </message>
    <message>
        <source>A “%1” part, from a newer version, is not shown.</source>
        <translation>来自更新版本的“%1”部分未显示。</translation>
    </message>
</context>
<context>
    <name>qcode::NoticeLabel</name>
    <message>
        <source>Click to dismiss</source>
        <translation>点击关闭</translation>
    </message>
</context>
<context>
    <name>qcode::Notifier</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分</translation>
    </message>
    <message>
        <source>A session</source>
        <translation>某个会话</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>会话“%1”</translation>
    </message>
    <message>
        <source>Permission needed</source>
        <translation>需要权限</translation>
    </message>
    <message>
        <source>%1 wants to: %2</source>
        <translation>%1 请求：%2</translation>
    </message>
    <message>
        <source>A question for you</source>
        <translation>有问题需要你回答</translation>
    </message>
    <message>
        <source>%1 asks: %2</source>
        <translation>%1 提问：%2</translation>
    </message>
    <message>
        <source>Task finished</source>
        <translation>任务已完成</translation>
    </message>
    <message>
        <source>%1 finished after %2.</source>
        <translation>%1 已完成，用时 %2。</translation>
    </message>
    <message>
        <source>Task failed</source>
        <translation>任务失败</translation>
    </message>
    <message>
        <source>%1 stopped: %2</source>
        <translation>%1 已停止：%2</translation>
    </message>
</context>
<context>
    <name>qcode::OpenAIResponsesStreamDecoder</name>
    <message>
        <source>The provider reported that the response failed without saying why.</source>
        <translation>提供商报告响应失败，但未说明原因。</translation>
    </message>
</context>
<context>
    <name>qcode::OutputView</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the whole output</source>
        <translation>复制全部输出</translation>
    </message>
    <message numerus="yes">
        <source>… %n earlier line(s) not shown</source>
        <translation>
            <numerusform>… 前面还有 %n 行未显示</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… 后面还有 %n 行未显示</numerusform>
        </translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>收起</translation>
    </message>
    <message numerus="yes">
        <source>+%n earlier line(s)</source>
        <translation>
            <numerusform>+%n 行（之前）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::PartWriter</name>
    <message>
        <source>Part %1 is a %2 part, which does not stream.</source>
        <translation>部分 %1 是 %2 部分，不支持流式传输。</translation>
    </message>
    <message>
        <source>Part %1 is not streaming.</source>
        <translation>部分 %1 未在流式传输。</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionCenter</name>
    <message>
        <source>Permission "%1" for %2 was refused: nobody can be asked here (run with --auto-approve to allow it).</source>
        <translation>%2 的权限 "%1" 已被拒绝：此处无人可以询问（使用 --auto-approve 运行以允许）。</translation>
    </message>
    <message>
        <source>The approval for this project could not be saved and lasts only until qcode quits: %1</source>
        <translation>无法保存对此项目的批准，它仅在 qcode 退出前有效：%1</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionDialog</name>
    <message>
        <source>In a session without a title</source>
        <translation>在无标题的会话中</translation>
    </message>
    <message>
        <source>In session “%1”</source>
        <translation>在会话“%1”中</translation>
    </message>
    <message>
        <source>Permission needed</source>
        <translation>需要权限</translation>
    </message>
    <message>
        <source>&amp;Tell the agent what to do instead:</source>
        <translation>告诉智能体改做什么(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>发送(&amp;S)</translation>
    </message>
    <message>
        <source>Allow &amp;once</source>
        <translation>允许一次(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>拒绝(&amp;R)</translation>
    </message>
    <message>
        <source>The agent stops and waits for your next message.</source>
        <translation>智能体将停止并等待你的下一条消息。</translation>
    </message>
    <message>
        <source>Until this session ends, without asking:
%1</source>
        <translation>在本会话结束前，无需询问：
%1</translation>
    </message>
    <message>
        <source>In every session of this project, without asking; saved, and listed in Settings to take back:
%1</source>
        <translation>在本项目的所有会话中，无需询问；该选择会被保存，并列在“设置”中以便撤回：
%1</translation>
    </message>
    <message>
        <source>“Always”: %1</source>
        <translation>“始终”：%1</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionsPage</name>
    <message>
        <source>allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Read files</source>
        <translation>读取文件</translation>
    </message>
    <message>
        <source>allow; ask for .env files</source>
        <translation>允许；.env 文件需询问</translation>
    </message>
    <message>
        <source>Change files (edit, write, patch)</source>
        <translation>修改文件（edit、write、patch）</translation>
    </message>
    <message>
        <source>Find files by name</source>
        <translation>按名称查找文件</translation>
    </message>
    <message>
        <source>Search in files</source>
        <translation>在文件中搜索</translation>
    </message>
    <message>
        <source>List folders</source>
        <translation>列出文件夹</translation>
    </message>
    <message>
        <source>Run shell commands</source>
        <translation>运行 shell 命令</translation>
    </message>
    <message>
        <source>Start subagents</source>
        <translation>启动子智能体</translation>
    </message>
    <message>
        <source>Fetch web pages</source>
        <translation>获取网页</translation>
    </message>
    <message>
        <source>Update the to-do list</source>
        <translation>更新待办列表</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>读取待办列表</translation>
    </message>
    <message>
        <source>Ask you questions</source>
        <translation>向你提问</translation>
    </message>
    <message>
        <source>allow for build and plan</source>
        <translation>对 build 和 plan 允许</translation>
    </message>
    <message>
        <source>Touch files outside the project</source>
        <translation>操作项目外部的文件</translation>
    </message>
    <message>
        <source>ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <source>Repeat the same tool call over and over</source>
        <translation>反复进行相同的工具调用</translation>
    </message>
    <message>
        <source>Removed. qcode asks again the next time.</source>
        <translation>已移除。qcode 下次会再次询问。</translation>
    </message>
    <message>
        <source>The answers were not removed: %1</source>
        <translation>回答未被移除：%1</translation>
    </message>
    <message>
        <source>What the agent may do without asking</source>
        <translation>智能体无需询问即可执行的操作</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>Permission "%1"</source>
        <translation>权限 "%1"</translation>
    </message>
    <message numerus="yes">
        <source>Custom rules (%n pattern(s))</source>
        <translation>
            <numerusform>自定义规则（%n 个模式）</numerusform>
        </translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>未保存：%1</translation>
    </message>
    <message>
        <source>Saved: %1 is back to the default.</source>
        <translation>已保存：%1 已恢复为默认值。</translation>
    </message>
    <message>
        <source>Saved: %1 is set to %2.</source>
        <translation>已保存：%1 已设置为 %2。</translation>
    </message>
    <message>
        <source>Answered "Always" in this project</source>
        <translation>在本项目中回答过“始终允许”的权限</translation>
    </message>
    <message>
        <source>Permission</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Open a project to see the answers saved for it.</source>
        <translation>打开一个项目即可查看为其保存的回答。</translation>
    </message>
    <message>
        <source>No saved answers: qcode asks whenever the rules say so.</source>
        <translation>没有保存的回答：qcode 会在规则要求时询问。</translation>
    </message>
    <message>
        <source>qcode's engine is not running, so saved answers cannot be changed now.</source>
        <translation>qcode 的引擎未运行，因此现在无法更改已保存的回答。</translation>
    </message>
    <message>
        <source>Removing…</source>
        <translation>正在移除…</translation>
    </message>
    <message>
        <source>Rules from the configuration</source>
        <translation>配置中的规则</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>The configuration sets no rules: the defaults above apply.</source>
        <translation>配置未设置规则：适用上方的默认值。</translation>
    </message>
    <message>
        <source>Later rules win. Change them in the configuration file.</source>
        <translation>后面的规则优先。请在配置文件中修改。</translation>
    </message>
</context>
<context>
    <name>qcode::PromptBox</name>
    <message>
        <source>The project's files could not be listed for @ mentions: %1</source>
        <translation>无法列出项目文件以供 @ 提及：%1</translation>
    </message>
    <message>
        <source>Ask anything. @ mentions a file or an agent, / runs a command, ! a shell command.</source>
        <translation>随便问。@ 可提及文件或智能体，/ 运行命令，! 运行 shell 命令。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the agent (%1)</source>
        <translation>停止智能体（%1）</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <source>Send (%1 or %2); %3 starts a new line</source>
        <translation>发送（%1 或 %2）；%3 换行</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>开始新会话</translation>
    </message>
    <message>
        <source>Summarize the session to free the model's context</source>
        <translation>对会话进行摘要，以释放模型的上下文</translation>
    </message>
    <message>
        <source>Undo the last message and the file changes it made</source>
        <translation>撤销上一条消息及其造成的文件更改</translation>
    </message>
    <message>
        <source>Bring back what undo took away</source>
        <translation>恢复撤销所撤回的内容</translation>
    </message>
    <message>
        <source>Export the session as Markdown</source>
        <translation>将会话导出为 Markdown</translation>
    </message>
    <message>
        <source>Choose the model</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>Choose the agent</source>
        <translation>选择智能体</translation>
    </message>
    <message>
        <source>Type a shell command after the "!".</source>
        <translation>请在“!”之后输入 shell 命令。</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>附加…</translation>
    </message>
    <message>
        <source>Attach files or images (or drop them here, or paste them)</source>
        <translation>附加文件或图片（也可拖放到此处或粘贴）</translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation>附加文件</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line; Up and Down recall earlier prompts; Ctrl+. switches the agent; Tab moves on</source>
        <translation>Enter 发送，Shift+Enter 换行；上下键调出之前的提示；Ctrl+. 切换智能体；Tab 移到下一项</translation>
    </message>
</context>
<context>
    <name>qcode::PromptLoop</name>
    <message numerus="yes">
        <source>The conversation still does not fit the model's context after %n compaction(s): the system prompt, instructions and tools alone may be too large for this model. Choose a model with a larger context, or remove instruction files or tools.</source>
        <translation>
            <numerusform>经过 %n 次压缩后，对话仍无法放入模型的上下文：仅系统提示词、指令和工具可能就已超出此模型的容量。请选择上下文更大的模型，或移除一些指令文件或工具。</numerusform>
        </translation>
    </message>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>未找到智能体："%1"。</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderCall</name>
    <message>
        <source>no network access is available</source>
        <translation>没有可用的网络访问</translation>
    </message>
    <message>
        <source>the provider's answer ended without a result</source>
        <translation>提供商的回答在没有结果的情况下结束了</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderConfig</name>
    <message>
        <source>%1 must be a list of strings</source>
        <translation>%1 必须是字符串列表</translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation>%1 必须是对象</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderKeysBox</name>
    <message>
        <source>Providers</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>Save Key</source>
        <translation>保存密钥</translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation>移除密钥</translation>
    </message>
    <message>
        <source>qcode has no system keychain to keep keys in. Each provider's key can come from its environment variable instead.</source>
        <translation>qcode 没有可用于保存密钥的系统钥匙串。每个提供商的密钥可以改为来自其环境变量。</translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation>%1（自定义）</translation>
    </message>
    <message>
        <source>Pick a provider to set its key.</source>
        <translation>选择一个提供商以设置其密钥。</translation>
    </message>
    <message>
        <source>API key for %1:</source>
        <translation>%1 的 API 密钥：</translation>
    </message>
    <message>
        <source>Using %1; a key saved here is used instead</source>
        <translation>正在使用 %1；此处保存的密钥将优先使用</translation>
    </message>
    <message>
        <source>The config's options.apiKey is used before any key saved here</source>
        <translation>配置中的 options.apiKey 会优先于此处保存的任何密钥</translation>
    </message>
    <message>
        <source>A key is saved; paste a new one to replace it</source>
        <translation>已保存密钥；粘贴新密钥即可替换</translation>
    </message>
    <message>
        <source>Paste the key</source>
        <translation>粘贴密钥</translation>
    </message>
    <message>
        <source>Paste the key, or set %1</source>
        <translation>粘贴密钥，或设置 %1</translation>
    </message>
    <message>
        <source>Paste the key for %1 first.</source>
        <translation>请先粘贴 %1 的密钥。</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>没有可用的系统钥匙串。</translation>
    </message>
    <message>
        <source>Saving the key for %1 in the system keychain…</source>
        <translation>正在将 %1 的密钥保存到系统钥匙串…</translation>
    </message>
    <message>
        <source>The key for %1 is saved in the system keychain.</source>
        <translation>%1 的密钥已保存到系统钥匙串。</translation>
    </message>
    <message>
        <source>The key for %1 is removed from the system keychain.</source>
        <translation>%1 的密钥已从系统钥匙串中移除。</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderRegistry</name>
    <message>
        <source>No system keychain is available to keep the key in.</source>
        <translation>没有可用于保存密钥的系统钥匙串。</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>没有可用的系统钥匙串。</translation>
    </message>
    <message>
        <source>Provider %1 uses the package %2, whose API qcode does not speak; it is left out.</source>
        <translation>提供商 %1 使用的包 %2 的 API 不受 qcode 支持，已将其排除。</translation>
    </message>
    <message>
        <source>Provider %1 has no usable base URL; set provider.%1.options.baseURL.</source>
        <translation>提供商 %1 没有可用的基础 URL；请设置 provider.%1.options.baseURL。</translation>
    </message>
    <message>
        <source>The config's model "%1" is not of the form provider/model.</source>
        <translation>配置中的模型 "%1" 不是 provider/model 形式。</translation>
    </message>
    <message>
        <source>No model provider is set up. Set an API key (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to opencode.json, or start a local server such as Ollama.</source>
        <translation>尚未设置任何模型提供商。请设置 API 密钥（例如 ANTHROPIC_API_KEY 或 OPENAI_API_KEY），在 opencode.json 中添加提供商，或启动 Ollama 等本地服务器。</translation>
    </message>
    <message>
        <source>The provider %1 offers no models.</source>
        <translation>提供商 %1 没有提供任何模型。</translation>
    </message>
</context>
<context>
    <name>qcode::QuestionCenter</name>
    <message>
        <source>The agent asked "%1", but nobody can answer questions here; the question was dismissed.</source>
        <translation>智能体提出了问题“%1”，但此处无人可以回答；该问题已被忽略。</translation>
    </message>
</context>
<context>
    <name>qcode::QuestionDialog</name>
    <message>
        <source>The agent asks, in a session without a title</source>
        <translation>智能体提问（在无标题的会话中）</translation>
    </message>
    <message>
        <source>The agent asks, in session “%1”</source>
        <translation>智能体提问（在会话“%1”中）</translation>
    </message>
    <message>
        <source>A question for you</source>
        <translation>有问题需要你回答</translation>
    </message>
    <message>
        <source>Questions for you</source>
        <translation>有几个问题需要你回答</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>忽略(&amp;D)</translation>
    </message>
    <message>
        <source>Leave the questions unanswered; the agent stops and waits for your next message.</source>
        <translation>不回答这些问题；智能体将停止并等待你的下一条消息。</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>上一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Submit</source>
        <translation>提交(&amp;S)</translation>
    </message>
    <message>
        <source>Question %1</source>
        <translation>问题 %1</translation>
    </message>
    <message>
        <source>%1 ✓</source>
        <translation>%1 ✓</translation>
    </message>
</context>
<context>
    <name>qcode::QuestionPage</name>
    <message>
        <source>Pick any that apply.</source>
        <translation>可多选。</translation>
    </message>
    <message>
        <source>&amp;Other…</source>
        <translation>其他(&amp;O)…</translation>
    </message>
    <message>
        <source>Your own answer</source>
        <translation>你自己的回答</translation>
    </message>
</context>
<context>
    <name>qcode::QueuedPromptRow</name>
    <message>
        <source>Queued</source>
        <translation>已排队</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <source>Edit this queued prompt (F2); Enter saves, Escape cancels</source>
        <translation>编辑此排队的提示词（F2）；Enter 保存，Esc 取消</translation>
    </message>
    <message>
        <source>Remove from the queue (Delete)</source>
        <translation>从队列中移除（Delete）</translation>
    </message>
    <message>
        <source>Remove from the queue</source>
        <translation>从队列中移除</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>立即发送</translation>
    </message>
    <message>
        <source>Send this prompt now; it waits behind a running answer</source>
        <translation>立即发送此提示；它会排在正在进行的回答之后</translation>
    </message>
</context>
<context>
    <name>qcode::ReasoningWidget</name>
    <message>
        <source>Show or hide the model's reasoning</source>
        <translation>显示或隐藏模型的推理过程</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <source>Thought for %1 s</source>
        <translation>已思考 %1 秒</translation>
    </message>
    <message>
        <source>(no reasoning text)</source>
        <translation>（无推理文本）</translation>
    </message>
</context>
<context>
    <name>qcode::ReplyStream</name>
    <message>
        <source>the request was stopped</source>
        <translation>请求已停止</translation>
    </message>
    <message>
        <source>the network is shutting down</source>
        <translation>网络正在关闭</translation>
    </message>
    <message>
        <source>%1 is not an http or https address</source>
        <translation>%1 不是 http 或 https 地址</translation>
    </message>
    <message>
        <source>%1 names no host</source>
        <translation>%1 没有指定主机</translation>
    </message>
    <message>
        <source>the header "%1" contains a line break and was not sent</source>
        <translation>请求头“%1”包含换行符，未发送</translation>
    </message>
    <message>
        <source>the response from %1 grew beyond %2</source>
        <translation>来自 %1 的响应超过了 %2</translation>
    </message>
    <message>
        <source>%1 redirected to an insecure address (%2)</source>
        <translation>%1 重定向到了不安全的地址（%2）</translation>
    </message>
    <message>
        <source>%1 redirected too often or to an invalid address</source>
        <translation>%1 重定向次数过多或重定向到了无效地址</translation>
    </message>
    <message>
        <source>%1 sent no response within %2 s</source>
        <translation>%1 在 %2 秒内没有响应</translation>
    </message>
    <message>
        <source>%1 sent nothing for %2 s in the middle of its answer</source>
        <translation>%1 在回答中途 %2 秒没有发送任何内容</translation>
    </message>
    <message>
        <source>%1 refused the connection</source>
        <translation>%1 拒绝了连接</translation>
    </message>
    <message>
        <source>the host %1 was not found</source>
        <translation>找不到主机 %1</translation>
    </message>
    <message>
        <source>%1 closed the connection in the middle of its answer</source>
        <translation>%1 在回答中途关闭了连接</translation>
    </message>
    <message>
        <source>%1 closed the connection without an answer</source>
        <translation>%1 未作回答就关闭了连接</translation>
    </message>
    <message>
        <source>the certificate of %1 was refused: %2</source>
        <translation>%1 的证书被拒绝：%2</translation>
    </message>
    <message>
        <source>the secure connection to %1 failed: %2</source>
        <translation>与 %1 的安全连接失败：%2</translation>
    </message>
    <message>
        <source>the proxy asks for a user name and password that qcode does not have; put them in the proxy address (http://user:password@host:port) or in Settings</source>
        <translation>代理要求提供 qcode 没有的用户名和密码；请将其写入代理地址（http://用户:密码@主机:端口）或在设置中填写</translation>
    </message>
    <message>
        <source>the proxy on the way to %1 failed: %2</source>
        <translation>通往 %1 的代理失败：%2</translation>
    </message>
    <message>
        <source>%1 sent a response that is not HTTP qcode can read: %2</source>
        <translation>%1 发送的响应不是 qcode 能读取的 HTTP：%2</translation>
    </message>
    <message>
        <source>the connection to %1 failed: %2</source>
        <translation>与 %1 的连接失败：%2</translation>
    </message>
</context>
<context>
    <name>qcode::RetryBanner</name>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop retrying and end this turn (Esc)</source>
        <translation>停止重试并结束这一轮（Esc）</translation>
    </message>
    <message>
        <source>The provider did not answer</source>
        <translation>提供商没有响应</translation>
    </message>
    <message numerus="yes">
        <source>%1. Retrying in %n s (attempt %2)…</source>
        <translation>
            <numerusform>%1。%n 秒后重试（第 %2 次）…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1. Retrying now (attempt %2)…</source>
        <translation>%1。正在重试（第 %2 次）…</translation>
    </message>
</context>
<context>
    <name>qcode::RevertBanner</name>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Bring back the next undone prompt and its changes (%1)</source>
        <translation>恢复下一条已撤销的提示词及其更改（%1）</translation>
    </message>
    <message>
        <source>No files needed restoring.</source>
        <translation>没有需要恢复的文件。</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 等 %n 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n file(s): %1.</source>
        <translation>
            <numerusform>已恢复 %n 个文件：%1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undid %n message(s). %1 They are removed for good when you send the next prompt.</source>
        <translation>
            <numerusform>已撤销 %n 条消息。%1 发送下一条提示时它们将被永久删除。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::RunCommand</name>
    <message>
        <source>Unknown agent "%1". Agents: %2.</source>
        <translation>未知的智能体 "%1"。可用的智能体：%2。</translation>
    </message>
    <message>
        <source>"%1" is a subagent; `qcode run` needs a primary agent: %2.</source>
        <translation>"%1" 是子智能体；`qcode run` 需要主智能体：%2。</translation>
    </message>
    <message>
        <source>Session not found: %1.</source>
        <translation>未找到会话：%1。</translation>
    </message>
    <message>
        <source>No session to continue in %1: run without --continue to start one.</source>
        <translation>%1 中没有可继续的会话：不加 --continue 运行即可开始新会话。</translation>
    </message>
    <message>
        <source>The database could not be opened.</source>
        <translation>无法打开数据库。</translation>
    </message>
    <message>
        <source>Interrupted.</source>
        <translation>已中断。</translation>
    </message>
</context>
<context>
    <name>qcode::SecretLineEdit</name>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Show or hide the key</source>
        <translation>显示或隐藏密钥</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
</context>
<context>
    <name>qcode::SessionCompaction</name>
    <message>
        <source>There is no session %1 to compact.</source>
        <translation>没有可压缩的会话 %1。</translation>
    </message>
</context>
<context>
    <name>qcode::SessionController</name>
    <message>
        <source>Open a project folder first.</source>
        <translation>请先打开一个项目文件夹。</translation>
    </message>
    <message>
        <source>The request this step answered is no longer there to send again.</source>
        <translation>此步骤所回答的请求已不存在，无法再次发送。</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的内容。</translation>
    </message>
    <message>
        <source>Nothing to redo.</source>
        <translation>没有可重做的内容。</translation>
    </message>
</context>
<context>
    <name>qcode::SessionItemDelegate</name>
    <message>
        <source>%1 · %2</source>
        <comment>a session's title and the time it began</comment>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>qcode::SessionPane</name>
    <message>
        <source>No session open</source>
        <translation>未打开会话</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
    <message>
        <source>Not sent: fix %1 first (see above), then reload.</source>
        <translation>未发送：请先修正 %1（见上方），然后重新加载。</translation>
    </message>
</context>
<context>
    <name>qcode::SessionScheduler</name>
    <message>
        <source>The folder %1 for session locks cannot be made.</source>
        <translation>无法创建会话锁文件夹 %1。</translation>
    </message>
    <message>
        <source>Session %1 is running in another qcode; wait for it to finish there, then try again.</source>
        <translation>会话 %1 正在另一个 qcode 中运行；请等它在那里完成后再试。</translation>
    </message>
    <message>
        <source>The lock of session %1 cannot be taken: %2 is not writable.</source>
        <translation>无法获取会话 %1 的锁：%2 不可写。</translation>
    </message>
    <message>
        <source>Session %1 is already running.</source>
        <translation>会话 %1 已在运行。</translation>
    </message>
</context>
<context>
    <name>qcode::SessionSidebar</name>
    <message>
        <source>Search sessions</source>
        <translation>搜索会话</translation>
    </message>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>Start a new session (%1)</source>
        <translation>开始新会话（%1）</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <source>Delete “%1”?</source>
        <translation>删除“%1”？</translation>
    </message>
    <message numerus="yes">
        <source>Its messages and its %n subagent session(s) are deleted too. This cannot be undone.</source>
        <translation>
            <numerusform>其消息和 %n 个子智能体会话也将被删除。此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>Its messages are deleted too. This cannot be undone.</source>
        <translation>其消息也将被删除。此操作无法撤销。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>重命名(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>分叉(&amp;F)</translation>
    </message>
    <message>
        <source>A copy of the whole session, to try another way</source>
        <translation>整个会话的副本，用于尝试另一种做法</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>No sessions match</source>
        <translation>没有匹配的会话</translation>
    </message>
    <message>
        <source>Find sessions by title or by what was said in them (%1); Esc clears</source>
        <translation>按标题或对话内容查找会话（%1）；Esc 清除</translation>
    </message>
</context>
<context>
    <name>qcode::SessionTreeModel</name>
    <message>
        <source>%1
Created %2, last active %3</source>
        <translation>%1
创建于 %2，最后活动于 %3</translation>
    </message>
    <message>
        <source>Waiting for your answer</source>
        <translation>等待你的回答</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>工作中…</translation>
    </message>
    <message>
        <source>Subagent session</source>
        <translation>子智能体会话</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新会话</translation>
    </message>
</context>
<context>
    <name>qcode::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>提供商</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Providers, models and permissions are saved in qcode's config file. &lt;a href="config"&gt;Show config file&lt;/a&gt;</source>
        <translation>提供商、模型和权限保存在 qcode 的配置文件中。&lt;a href="config"&gt;显示配置文件&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>qcode::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>In the prompt box</source>
        <translation>在提示框中</translation>
    </message>
    <message>
        <source>Enter, Ctrl+Enter</source>
        <translation>Enter、Ctrl+Enter</translation>
    </message>
    <message>
        <source>Send (while the agent works, the prompt is queued)</source>
        <translation>发送（智能体工作时，提示会进入队列）</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <source>New line</source>
        <translation>换行</translation>
    </message>
    <message>
        <source>Up / Down</source>
        <translation>上 / 下</translation>
    </message>
    <message>
        <source>Earlier / later prompts (on the first / last line)</source>
        <translation>较早 / 较晚的提示（在第一行 / 最后一行时）</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Shift+Tab</translation>
    </message>
    <message>
        <source>Next / previous agent</source>
        <translation>下一个 / 上一个智能体</translation>
    </message>
    <message>
        <source>Mention a project file or an agent</source>
        <translation>提及项目文件或智能体</translation>
    </message>
    <message>
        <source>/ at the start</source>
        <translation>开头的 /</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>! at the start</source>
        <translation>开头的 !</translation>
    </message>
    <message>
        <source>Run the line in your shell</source>
        <translation>在您的 shell 中运行该行</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Ctrl+Shift+M</translation>
    </message>
    <message>
        <source>Choose the model</source>
        <translation>选择模型</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Close the popup; otherwise stop the agent while it works</source>
        <translation>关闭弹出框；否则在智能体工作时停止它</translation>
    </message>
    <message>
        <source>Ctrl+. / Ctrl+Shift+.</source>
        <translation>Ctrl+. / Ctrl+Shift+.</translation>
    </message>
    <message>
        <source>Leave the prompt box (Ctrl+Tab while a list of suggestions is open)</source>
        <translation>离开提示框（建议列表打开时按 Ctrl+Tab）</translation>
    </message>
</context>
<context>
    <name>qcode::SseReader</name>
    <message>
        <source>The provider sent a line longer than %1 bytes; the stream was stopped.</source>
        <translation>提供商发送的某一行超过 %1 字节；数据流已停止。</translation>
    </message>
    <message>
        <source>The provider sent an event larger than %1 bytes; the stream was stopped.</source>
        <translation>提供商发送的某个事件超过 %1 字节；数据流已停止。</translation>
    </message>
</context>
<context>
    <name>qcode::TitleGenerator</name>
    <message>
        <source>There is no session %1 to name.</source>
        <translation>没有可命名的会话 %1。</translation>
    </message>
    <message>
        <source>The model answered without a title.</source>
        <translation>模型的回答中没有标题。</translation>
    </message>
    <message>
        <source>The session %1 was deleted before it got a title.</source>
        <translation>会话 %1 在获得标题之前已被删除。</translation>
    </message>
    <message>
        <source>The title was not generated: stopped.</source>
        <translation>未生成标题：已停止。</translation>
    </message>
</context>
<context>
    <name>qcode::TodoPanel</name>
    <message>
        <source>Show or hide the agent's plan</source>
        <translation>显示或隐藏智能体的计划</translation>
    </message>
    <message>
        <source>%1 · priority %2</source>
        <translation>%1 · 优先级 %2</translation>
    </message>
    <message>
        <source>Plan: %1 of %2 done</source>
        <translation>计划：已完成 %1/%2</translation>
    </message>
</context>
<context>
    <name>qcode::ToolCard</name>
    <message>
        <source>Proposed change: %1</source>
        <translation>拟议的更改：%1</translation>
    </message>
    <message>
        <source>Stopped before it finished.</source>
        <translation>在完成之前已停止。</translation>
    </message>
</context>
<context>
    <name>qcode::ToolCardHeader</name>
    <message>
        <source>Press Space to show or hide the details</source>
        <translation>按空格键显示或隐藏详细信息</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Open the subagent's session</source>
        <translation>打开子智能体的会话</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>a tool call's title, then its status</comment>
        <translation>%1，%2</translation>
    </message>
</context>
<context>
    <name>qcode::UserTextWidget</name>
    <message>
        <source>Show less</source>
        <translation>收起</translation>
    </message>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n 行</numerusform>
        </translation>
    </message>
</context>
</TS>
