<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AgentConfig</name>
    <message>
        <source>true/false</source>
        <translation>true/false</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>eine Liste</translation>
    </message>
    <message>
        <source>a map</source>
        <translation>eine Map</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>must be text, not %1</source>
        <translation>muss Text sein, nicht %1</translation>
    </message>
    <message>
        <source>must be a number, not %1</source>
        <translation>muss eine Zahl sein, nicht %1</translation>
    </message>
    <message>
        <source>must be true or false, not %1</source>
        <translation>muss true oder false sein, nicht %1</translation>
    </message>
    <message>
        <source>must be a whole number of at least 1, not %1</source>
        <translation>muss eine ganze Zahl von mindestens 1 sein, nicht %1</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>must be written "provider/model", such as "anthropic/claude-sonnet-4-5"; "%1" is not</source>
        <translation>muss als „anbieter/modell“ geschrieben werden, etwa „anthropic/claude-sonnet-4-5“; „%1“ ist das nicht</translation>
    </message>
    <message>
        <source>must be "primary", "subagent" or "all", not "%1"</source>
        <translation>muss „primary“, „subagent“ oder „all“ sein, nicht „%1“</translation>
    </message>
    <message>
        <source>must be a colour such as "#FF5733" or one of %1, not "%2"</source>
        <translation>muss eine Farbe wie „#FF5733“ oder eine von %1 sein, nicht „%2“</translation>
    </message>
    <message>
        <source>must be a map, not %1</source>
        <translation>muss eine Map sein, nicht %1</translation>
    </message>
    <message>
        <source>must be a map of tool names to true or false, not %1</source>
        <translation>muss eine Map von Tool-Namen auf true oder false sein, nicht %1</translation>
    </message>
    <message>
        <source>must map each tool to true or false; "%1" is %2</source>
        <translation>muss jedem Tool true oder false zuordnen; „%1“ ist %2</translation>
    </message>
    <message>
        <source>must be "allow", "ask", "deny" or a map of them, not %1</source>
        <translation>muss „allow“, „ask“, „deny“ oder eine Map davon sein, nicht %1</translation>
    </message>
    <message>
        <source>agent "%1"</source>
        <translation>Agent „%1“</translation>
    </message>
    <message>
        <source>agent "%1": "%2" %3.</source>
        <translation>Agent „%1“: „%2“ %3.</translation>
    </message>
</context>
<context>
    <name>AgentRegistry</name>
    <message>
        <source>OPENCODE_PERMISSION is not valid JSON (%1); it is ignored.</source>
        <translation>OPENCODE_PERMISSION ist kein gültiges JSON (%1); die Variable wird ignoriert.</translation>
    </message>
    <message>
        <source>config: "tools" must be a map of tool names to true or false; it is ignored.</source>
        <translation>Konfiguration: „tools“ muss eine Map von Tool-Namen auf true oder false sein; der Eintrag wird ignoriert.</translation>
    </message>
    <message>
        <source>config</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>config: "%1" must be a map of agent names to their settings; it is ignored.</source>
        <translation>Konfiguration: „%1“ muss eine Map von Agentennamen auf ihre Einstellungen sein; der Eintrag wird ignoriert.</translation>
    </message>
    <message>
        <source>config: %1.%2 must be a map of settings; it is ignored.</source>
        <translation>Konfiguration: %1.%2 muss eine Map von Einstellungen sein; der Eintrag wird ignoriert.</translation>
    </message>
    <message>
        <source>%1: the settings for the built-in agent "%2" are ignored except its permission rules.</source>
        <translation>%1: Die Einstellungen für den eingebauten Agenten „%2“ werden bis auf seine Berechtigungsregeln ignoriert.</translation>
    </message>
    <message>
        <source>%1: the agent "%2" is skipped.</source>
        <translation>%1: Der Agent „%2“ wird übersprungen.</translation>
    </message>
    <message>
        <source>config: "default_agent" must be an agent name; it is ignored.</source>
        <translation>Konfiguration: „default_agent“ muss ein Agentenname sein; der Eintrag wird ignoriert.</translation>
    </message>
    <message>
        <source>default agent "%1" not found</source>
        <translation>Standard-Agent „%1“ nicht gefunden</translation>
    </message>
    <message>
        <source>default agent "%1" is a subagent</source>
        <translation>Standard-Agent „%1“ ist ein Subagent</translation>
    </message>
    <message>
        <source>default agent "%1" is hidden</source>
        <translation>Standard-Agent „%1“ ist verborgen</translation>
    </message>
    <message>
        <source>no primary visible agent found</source>
        <translation>kein sichtbarer primärer Agent gefunden</translation>
    </message>
</context>
<context>
    <name>AnthropicRequestBuilder</name>
    <message>
        <source>Anthropic models read JPEG, PNG, GIF and WebP images; "%1" is %2.</source>
        <translation>Anthropic-Modelle lesen JPEG-, PNG-, GIF- und WebP-Bilder; „%1“ ist %2.</translation>
    </message>
    <message>
        <source>Anthropic models cannot read "%1" (%2); attach an image, a PDF or text.</source>
        <translation>Anthropic-Modelle können „%1“ (%2) nicht lesen; hänge ein Bild, ein PDF oder Text an.</translation>
    </message>
    <message>
        <source>Anthropic takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation>Anthropic nimmt Systemanweisungen nur vor dem Gespräch an; eine Systemnachricht kam danach.</translation>
    </message>
    <message>
        <source>There is no message left to send to Anthropic once empty text is removed.</source>
        <translation>Nach dem Entfernen leerer Texte bleibt keine Nachricht übrig, die an Anthropic gesendet werden könnte.</translation>
    </message>
    <message>
        <source>Anthropic needs a thinking budget of at least %1 tokens; %2 was asked for.</source>
        <translation>Anthropic braucht ein Denkbudget von mindestens %1 Token; verlangt wurden %2.</translation>
    </message>
</context>
<context>
    <name>AttachmentIntake</name>
    <message>
        <source>%1 is not a file on this computer; only local files and folders can be attached.</source>
        <translation>%1 ist keine Datei auf diesem Computer; nur lokale Dateien und Ordner können angehängt werden.</translation>
    </message>
    <message>
        <source>%1 does not exist (it may have been moved or deleted).</source>
        <translation>%1 existiert nicht (vielleicht wurde es verschoben oder gelöscht).</translation>
    </message>
    <message>
        <source>%1 cannot be read: you do not have permission to open it.</source>
        <translation>%1 kann nicht gelesen werden: Du hast keine Berechtigung, es zu öffnen.</translation>
    </message>
    <message>
        <source>%1 is %2 MB; images can be at most %3 MB.</source>
        <translation>%1 ist %2 MB groß; Bilder dürfen höchstens %3 MB groß sein.</translation>
    </message>
    <message>
        <source>%1 is %2 MB; attached documents can be at most %3 MB.</source>
        <translation>%1 ist %2 MB groß; angehängte Dokumente dürfen höchstens %3 MB groß sein.</translation>
    </message>
    <message>
        <source>The pasted image could not be read.</source>
        <translation>Das eingefügte Bild konnte nicht gelesen werden.</translation>
    </message>
    <message>
        <source>The pasted image could not be converted to PNG.</source>
        <translation>Das eingefügte Bild konnte nicht in PNG umgewandelt werden.</translation>
    </message>
    <message>
        <source>The pasted image is %1 MB as PNG; images can be at most %2 MB.</source>
        <translation>Das eingefügte Bild ist als PNG %1 MB groß; Bilder dürfen höchstens %2 MB groß sein.</translation>
    </message>
    <message>
        <source>Pasted image %1 × %2</source>
        <translation>Eingefügtes Bild %1 × %2</translation>
    </message>
</context>
<context>
    <name>CommandPrompt</name>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>Agent nicht gefunden: „%1“.</translation>
    </message>
    <message>
        <source>Available agents: %1</source>
        <translation>Verfügbare Agenten: %1</translation>
    </message>
    <message>
        <source>Command not found: "%1".</source>
        <translation>Befehl nicht gefunden: „%1“.</translation>
    </message>
    <message>
        <source>Available commands: %1</source>
        <translation>Verfügbare Befehle: %1</translation>
    </message>
</context>
<context>
    <name>CommandRegistry</name>
    <message>
        <source>"%1" must be text</source>
        <translation>„%1“ muss Text sein</translation>
    </message>
    <message>
        <source>"model" must be of the form provider/model</source>
        <translation>„model“ muss die Form anbieter/modell haben</translation>
    </message>
    <message>
        <source>"subtask" must be true or false</source>
        <translation>„subtask“ muss true oder false sein</translation>
    </message>
    <message>
        <source>config</source>
        <translation>Konfiguration</translation>
    </message>
    <message>
        <source>%1: command.%2 must be a map of settings; it is skipped.</source>
        <translation>%1: command.%2 muss eine Map von Einstellungen sein; der Befehl wird übersprungen.</translation>
    </message>
    <message>
        <source>%1: command.%2 has no "template" text; it is skipped.</source>
        <translation>%1: command.%2 hat keinen „template“-Text; der Befehl wird übersprungen.</translation>
    </message>
    <message>
        <source>config: "command" must be a map of command names to their settings; it is ignored.</source>
        <translation>Konfiguration: „command“ muss eine Map von Befehlsnamen auf ihre Einstellungen sein; der Eintrag wird ignoriert.</translation>
    </message>
    <message>
        <source>The command file could not be loaded: %1</source>
        <translation>Die Befehlsdatei konnte nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>%1: the command "%2" is skipped: %3.</source>
        <translation>%1: Der Befehl „%2“ wird übersprungen: %3.</translation>
    </message>
</context>
<context>
    <name>CompatibleProvider</name>
    <message>
        <source>Give the provider an id, such as “my-server”; models are then named my-server/&lt;model&gt;.</source>
        <translation>Gib dem Anbieter eine ID, etwa „mein-server“; seine Modelle heißen dann mein-server/&lt;modell&gt;.</translation>
    </message>
    <message>
        <source>The provider id “%1” may use only letters, digits, dots, dashes and underscores, and must start with a letter or digit.</source>
        <translation>Die Anbieter-ID „%1“ darf nur Buchstaben, Ziffern, Punkte, Bindestriche und Unterstriche enthalten und muss mit einem Buchstaben oder einer Ziffer beginnen.</translation>
    </message>
    <message>
        <source>List at least one model id the server offers; a provider without models is not offered.</source>
        <translation>Gib mindestens eine Modell-ID an, die der Server anbietet; ein Anbieter ohne Modelle wird nicht angeboten.</translation>
    </message>
    <message>
        <source>The model id “%1” must not be empty or contain spaces.</source>
        <translation>Die Modell-ID „%1“ darf nicht leer sein und keine Leerzeichen enthalten.</translation>
    </message>
    <message>
        <source>Enter the server's base URL, such as http://127.0.0.1:8000/v1.</source>
        <translation>Gib die Basis-URL des Servers ein, etwa http://127.0.0.1:8000/v1.</translation>
    </message>
    <message>
        <source>“%1” is not a usable base URL; it must start with http:// or https:// and name a host, such as http://127.0.0.1:8000/v1.</source>
        <translation>„%1“ ist keine brauchbare Basis-URL; sie muss mit http:// oder https:// beginnen und einen Host nennen, etwa http://127.0.0.1:8000/v1.</translation>
    </message>
</context>
<context>
    <name>CompletionRanking</name>
    <message>
        <source>agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>subagent</source>
        <translation>Subagent</translation>
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
        <translation>Der Konfigurationsschlüssel „%1“ muss ein „anbieter/modell“-String sein; er wird ignoriert.</translation>
    </message>
    <message>
        <source>The config key "%1" must be a list of provider ids; it is ignored.</source>
        <translation>Der Konfigurationsschlüssel „%1“ muss eine Liste von Anbieter-IDs sein; er wird ignoriert.</translation>
    </message>
    <message>
        <source>The config entry provider.%1 must be an object; it is ignored.</source>
        <translation>Der Konfigurationseintrag provider.%1 muss ein Objekt sein; er wird ignoriert.</translation>
    </message>
    <message>
        <source>The config key "provider" must be an object; it is ignored.</source>
        <translation>Der Konfigurationsschlüssel „provider“ muss ein Objekt sein; er wird ignoriert.</translation>
    </message>
</context>
<context>
    <name>ConfigFile</name>
    <message>
        <source>is %1 bytes, larger than the %2 MiB a config file may be</source>
        <translation>ist %1 Bytes groß, mehr als die %2 MiB, die eine Konfigurationsdatei haben darf</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>ist ein Ordner, keine Datei</translation>
    </message>
    <message>
        <source>is a named pipe (FIFO), not a file</source>
        <translation>ist eine benannte Pipe (FIFO), keine Datei</translation>
    </message>
    <message>
        <source>is a socket, not a file</source>
        <translation>ist ein Socket, keine Datei</translation>
    </message>
    <message>
        <source>is a device, not a file</source>
        <translation>ist ein Gerät, keine Datei</translation>
    </message>
    <message>
        <source>is not a regular file</source>
        <translation>ist keine normale Datei</translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation>kann nicht gelesen werden: %1</translation>
    </message>
</context>
<context>
    <name>ConfigLoader</name>
    <message>
        <source>%1: the config file named by the environment does not exist</source>
        <translation>%1: Die in der Umgebung genannte Konfigurationsdatei existiert nicht</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text (byte 0x%1)</source>
        <translation>die Datei ist kein UTF-8-Text (Byte 0x%1)</translation>
    </message>
</context>
<context>
    <name>ConfigSchema</name>
    <message>
        <source>the number %1</source>
        <translation>die Zahl %1</translation>
    </message>
    <message>
        <source>the text "%1"</source>
        <translation>der Text „%1“</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>eine Liste</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>"%1" must be %2, not %3</source>
        <translation>„%1“ muss %2 sein, nicht %3</translation>
    </message>
    <message>
        <source>text</source>
        <translation>Text</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true oder false</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>a whole number of at least 1</source>
        <translation>eine ganze Zahl ab 1</translation>
    </message>
    <message>
        <source>one of "%1"</source>
        <translation>einer der Werte „%1“</translation>
    </message>
    <message>
        <source>an object { … }</source>
        <translation>ein Objekt { … }</translation>
    </message>
    <message>
        <source>a list of texts [ … ]</source>
        <translation>eine Liste von Texten [ … ]</translation>
    </message>
    <message>
        <source>"allow", "ask" or "deny"</source>
        <translation>„allow“, „ask“ oder „deny“</translation>
    </message>
    <message>
        <source>"allow", "ask", "deny" or an object of them</source>
        <translation>„allow“, „ask“, „deny“ oder ein Objekt daraus</translation>
    </message>
    <message>
        <source>written "provider/model"</source>
        <translation>in der Form „provider/model“</translation>
    </message>
    <message>
        <source>a colour such as "#FF5733" or one of %1</source>
        <translation>eine Farbe wie „#FF5733“ oder eine von %1</translation>
    </message>
    <message>
        <source>a number of milliseconds or false</source>
        <translation>eine Zahl von Millisekunden oder false</translation>
    </message>
</context>
<context>
    <name>ConfigSubstitution</name>
    <message>
        <source>does not exist</source>
        <translation>existiert nicht</translation>
    </message>
    <message>
        <source>bad file reference "%1": %2 %3</source>
        <translation>ungültiger Dateiverweis „%1“: %2 %3</translation>
    </message>
    <message>
        <source>is not UTF-8 text</source>
        <translation>ist kein UTF-8-Text</translation>
    </message>
</context>
<context>
    <name>FallbackSecretStore</name>
    <message>
        <source>The key file %1 cannot be read: %2</source>
        <translation>Die Schlüsseldatei %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>The key file %1 is not a JSON object; its keys are not used.</source>
        <translation>Die Schlüsseldatei %1 ist kein JSON-Objekt; ihre Schlüssel werden nicht verwendet.</translation>
    </message>
    <message>
        <source>The folder of the key file %1 cannot be made.</source>
        <translation>Der Ordner der Schlüsseldatei %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>The key file %1 cannot be written: %2</source>
        <translation>Die Schlüsseldatei %1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>FencedCodeWriter</name>
    <message>
        <source>code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>FrontMatter</name>
    <message>
        <source>%1:1: the front matter that starts here is never closed by a "---" line</source>
        <translation>%1:1: Der hier beginnende Front-Matter-Block wird nie durch eine „---“-Zeile abgeschlossen</translation>
    </message>
    <message>
        <source>%1:2: the front matter must be "key: value" lines</source>
        <translation>%1:2: Der Front-Matter-Block muss aus „key: value“-Zeilen bestehen</translation>
    </message>
    <message>
        <source>%1: the file is not UTF-8 text</source>
        <translation>%1: die Datei ist kein UTF-8-Text</translation>
    </message>
</context>
<context>
    <name>GeminiRequestBuilder</name>
    <message>
        <source>Gemini takes system instructions only before the conversation; a system message arrived after it.</source>
        <translation>Gemini nimmt Systemanweisungen nur vor dem Gespräch an; eine Systemnachricht kam danach.</translation>
    </message>
    <message>
        <source>There is no message left to send to Gemini once empty text is removed.</source>
        <translation>Nach dem Entfernen leerer Texte bleibt keine Nachricht übrig, die an Gemini gesendet werden könnte.</translation>
    </message>
</context>
<context>
    <name>GitProcess</name>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>%1 kann nicht ausgeführt werden: %2</translation>
    </message>
    <message>
        <source>%1 %2 crashed.</source>
        <translation>%1 %2 ist abgestürzt.</translation>
    </message>
</context>
<context>
    <name>JsoncParser</name>
    <message>
        <source>a /* comment is never closed</source>
        <translation>ein /*-Kommentar wird nie geschlossen</translation>
    </message>
    <message>
        <source>the configuration must be a JSON object { … }</source>
        <translation>die Konfiguration muss ein JSON-Objekt { … } sein</translation>
    </message>
</context>
<context>
    <name>KeychainMessages</name>
    <message>
        <source>%1.</source>
        <comment>a sentence that came without its full stop</comment>
        <translation>%1.</translation>
    </message>
    <message>
        <source>The system keychain cannot be read. Keys can still come from environment variables.</source>
        <translation>Der System-Schlüsselbund kann nicht gelesen werden. Schlüssel können weiterhin aus Umgebungsvariablen kommen.</translation>
    </message>
    <message>
        <source>The system keychain cannot be read. %1 Keys can still come from environment variables.</source>
        <translation>Der System-Schlüsselbund kann nicht gelesen werden. %1 Schlüssel können weiterhin aus Umgebungsvariablen kommen.</translation>
    </message>
    <message>
        <source>The key for %1 was not saved. Without a keychain, set the environment variable %2 to the key before starting qcode (for example in your shell profile).</source>
        <translation>Der Schlüssel für %1 wurde nicht gespeichert. Ohne Schlüsselbund setze die Umgebungsvariable %2 auf den Schlüssel, bevor du qcode startest (zum Beispiel in deinem Shell-Profil).</translation>
    </message>
    <message>
        <source>The key for %1 was not saved. %2 Without a keychain, set the environment variable %3 to the key before starting qcode (for example in your shell profile).</source>
        <translation>Der Schlüssel für %1 wurde nicht gespeichert. %2 Ohne Schlüsselbund setze die Umgebungsvariable %3 auf den Schlüssel, bevor du qcode startest (zum Beispiel in deinem Shell-Profil).</translation>
    </message>
    <message>
        <source>The key for %1 was not removed from the system keychain.</source>
        <translation>Der Schlüssel für %1 wurde nicht aus dem System-Schlüsselbund entfernt.</translation>
    </message>
    <message>
        <source>The key for %1 was not removed from the system keychain. %2</source>
        <translation>Der Schlüssel für %1 wurde nicht aus dem System-Schlüsselbund entfernt. %2</translation>
    </message>
    <message>
        <source>No system keychain is running, so the key for %1 is saved in a private file only you can read: %2</source>
        <translation>Es läuft kein Systemschlüsselbund, daher wird der Schlüssel für %1 in einer privaten Datei gespeichert, die nur Sie lesen können: %2</translation>
    </message>
    <message>
        <source>No system keychain is running. Keys typed here are saved in a private file only you can read: %1</source>
        <translation>Es läuft kein Systemschlüsselbund. Hier eingegebene Schlüssel werden in einer privaten Datei gespeichert, die nur Sie lesen können: %1</translation>
    </message>
</context>
<context>
    <name>KeychainSecretStore</name>
    <message>
        <source>The system keychain did not answer in time.</source>
        <translation>Der System-Schlüsselbund hat nicht rechtzeitig geantwortet.</translation>
    </message>
    <message>
        <source>Could not read the key for %1 from the system keychain: %2</source>
        <translation>Der Schlüssel für %1 konnte nicht aus dem System-Schlüsselbund gelesen werden: %2</translation>
    </message>
    <message>
        <source>Could not store the key for %1 in the system keychain: %2</source>
        <translation>Der Schlüssel für %1 konnte nicht im System-Schlüsselbund gespeichert werden: %2</translation>
    </message>
    <message>
        <source>Could not remove the key for %1 from the system keychain: %2</source>
        <translation>Der Schlüssel für %1 konnte nicht aus dem System-Schlüsselbund entfernt werden: %2</translation>
    </message>
    <message>
        <source>No system keychain is available: %1</source>
        <translation>Kein Schlüsselbund des Systems verfügbar: %1</translation>
    </message>
</context>
<context>
    <name>MarkdownRenderer</name>
    <message numerus="yes">
        <source>… %n more line(s) not shown here; Copy copies them all</source>
        <translation>
            <numerusform>… %n weitere Zeile hier nicht angezeigt; „Kopieren“ kopiert alles</numerusform>
            <numerusform>… %n weitere Zeilen hier nicht angezeigt; „Kopieren“ kopiert alle</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more character(s) not shown here</source>
        <translation>
            <numerusform>… %n weiteres Zeichen hier nicht angezeigt</numerusform>
            <numerusform>… %n weitere Zeichen hier nicht angezeigt</numerusform>
        </translation>
    </message>
    <message>
        <source>code</source>
        <translation>Code</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>MessageErrors</name>
    <message>
        <source>The answer was stopped.</source>
        <translation>Die Antwort wurde abgebrochen.</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message numerus="yes">
        <source>The provider failed %n time(s) in a row, so qcode stopped trying (last error: %1). Try again later or choose another model.</source>
        <translation>
            <numerusform>Der Anbieter ist %n-mal gescheitert, daher hat qcode aufgehört, es zu versuchen (letzter Fehler: %1). Versuche es später erneut oder wähle ein anderes Modell.</numerusform>
            <numerusform>Der Anbieter ist %n-mal hintereinander gescheitert, daher hat qcode aufgehört, es zu versuchen (letzter Fehler: %1). Versuche es später erneut oder wähle ein anderes Modell.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelCatalogue</name>
    <message>
        <source>The bundled model catalogue %1 is missing from this build.</source>
        <translation>Der mitgelieferte Modellkatalog %1 fehlt in diesem Build.</translation>
    </message>
    <message>
        <source>%1 is not a JSON object (%2 at byte %3).</source>
        <translation>%1 ist kein JSON-Objekt (%2 bei Byte %3).</translation>
    </message>
    <message>
        <source>%1 has no "providers" object.</source>
        <translation>%1 hat kein „providers“-Objekt.</translation>
    </message>
    <message>
        <source>%1: provider %2 must be an object.</source>
        <translation>%1: Anbieter %2 muss ein Objekt sein.</translation>
    </message>
    <message>
        <source>%1: provider %2: %3 must be a string.</source>
        <translation>%1: Anbieter %2: %3 muss ein String sein.</translation>
    </message>
    <message>
        <source>%1: provider %2: env must be a list of variable names.</source>
        <translation>%1: Anbieter %2: env muss eine Liste von Variablennamen sein.</translation>
    </message>
    <message>
        <source>%1: provider %2: models must be an object.</source>
        <translation>%1: Anbieter %2: models muss ein Objekt sein.</translation>
    </message>
    <message>
        <source>%1: model %2/%3 must be an object.</source>
        <translation>%1: Modell %2/%3 muss ein Objekt sein.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>config</source>
        <translation>Konfiguration</translation>
    </message>
</context>
<context>
    <name>ModelInfo</name>
    <message>
        <source>%1 must be a number of at least 0</source>
        <translation>%1 muss eine Zahl von mindestens 0 sein</translation>
    </message>
    <message>
        <source>%1 must be a whole number of tokens</source>
        <translation>%1 muss eine ganze Zahl von Token sein</translation>
    </message>
    <message>
        <source>%1 must be true or false</source>
        <translation>%1 muss true oder false sein</translation>
    </message>
    <message>
        <source>%1 must be a string</source>
        <translation>%1 muss ein String sein</translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation>%1 muss ein Objekt sein</translation>
    </message>
    <message>
        <source>status must be alpha, beta or deprecated</source>
        <translation>status muss alpha, beta oder deprecated sein</translation>
    </message>
    <message>
        <source>modalities.input must be a list of strings</source>
        <translation>modalities.input muss eine Liste von Strings sein</translation>
    </message>
    <message>
        <source>headers.%1 must be a string</source>
        <translation>headers.%1 muss ein String sein</translation>
    </message>
    <message>
        <source>limit.input must not exceed limit.context</source>
        <translation>limit.input darf limit.context nicht übersteigen</translation>
    </message>
    <message>
        <source>Model %1/%2: %3</source>
        <translation>Modell %1/%2: %3</translation>
    </message>
</context>
<context>
    <name>OpenAIChatRequestBuilder</name>
    <message>
        <source>The Chat Completions API cannot take "%1" (%2); attach an image or a PDF.</source>
        <translation>Die Chat-Completions-API kann „%1“ (%2) nicht annehmen; hänge ein Bild oder ein PDF an.</translation>
    </message>
</context>
<context>
    <name>OpenAIResponsesRequestBuilder</name>
    <message>
        <source>The Responses API cannot take "%1" (%2); attach an image or a PDF.</source>
        <translation>Die Responses-API kann „%1“ (%2) nicht annehmen; hänge ein Bild oder ein PDF an.</translation>
    </message>
</context>
<context>
    <name>OptionValue</name>
    <message>
        <source>%1 was given more than once.</source>
        <translation>%1 wurde mehr als einmal angegeben.</translation>
    </message>
    <message>
        <source>%1 needs a value.</source>
        <translation>%1 braucht einen Wert.</translation>
    </message>
</context>
<context>
    <name>PermissionDescription</name>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weiteres</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>every file edit</source>
        <translation>jede Dateibearbeitung</translation>
    </message>
    <message>
        <source>reading any file</source>
        <translation>das Lesen beliebiger Dateien</translation>
    </message>
    <message>
        <source>finding any files</source>
        <translation>das Finden beliebiger Dateien</translation>
    </message>
    <message>
        <source>searching any file contents</source>
        <translation>das Durchsuchen beliebiger Dateiinhalte</translation>
    </message>
    <message>
        <source>listing any folder</source>
        <translation>das Auflisten beliebiger Ordner</translation>
    </message>
    <message>
        <source>fetching any web page</source>
        <translation>das Abrufen beliebiger Webseiten</translation>
    </message>
    <message>
        <source>starting any subagent</source>
        <translation>das Starten beliebiger Subagenten</translation>
    </message>
    <message>
        <source>updating the to-do list</source>
        <translation>das Aktualisieren der To-do-Liste</translation>
    </message>
    <message>
        <source>reading the to-do list</source>
        <translation>das Lesen der To-do-Liste</translation>
    </message>
    <message>
        <source>every “%1” request</source>
        <translation>jede „%1“-Anfrage</translation>
    </message>
    <message>
        <source>Run a command</source>
        <translation>Einen Befehl ausführen</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Edit a file</source>
        <translation>Eine Datei bearbeiten</translation>
    </message>
    <message numerus="yes">
        <source>Edit %n files</source>
        <translation>
            <numerusform>%n Datei bearbeiten</numerusform>
            <numerusform>%n Dateien bearbeiten</numerusform>
        </translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>Run a command that reaches outside the project</source>
        <translation>Einen Befehl ausführen, der über das Projekt hinausgreift</translation>
    </message>
    <message>
        <source>Folders outside the project</source>
        <translation>Ordner außerhalb des Projekts</translation>
    </message>
    <message>
        <source>Access a folder outside the project</source>
        <translation>Auf einen Ordner außerhalb des Projekts zugreifen</translation>
    </message>
    <message>
        <source>Access a file outside the project</source>
        <translation>Auf eine Datei außerhalb des Projekts zugreifen</translation>
    </message>
    <message>
        <source>Outside the project</source>
        <translation>Außerhalb des Projekts</translation>
    </message>
    <message>
        <source>Find files by name</source>
        <translation>Dateien nach Namen finden</translation>
    </message>
    <message>
        <source>Search file contents</source>
        <translation>Dateiinhalte durchsuchen</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Muster</translation>
    </message>
    <message>
        <source>In folder</source>
        <translation>Im Ordner</translation>
    </message>
    <message>
        <source>In files named</source>
        <translation>In Dateien namens</translation>
    </message>
    <message numerus="yes">
        <source>The agent repeated the same call %n times (doom loop)</source>
        <translation>
            <numerusform>Der Agent hat denselben Aufruf %n-mal wiederholt (Endlosschleife)</numerusform>
            <numerusform>Der Agent hat denselben Aufruf %n-mal wiederholt (Endlosschleife)</numerusform>
        </translation>
    </message>
    <message>
        <source>It may be stuck. Allow it to go on with the same call, or tell it what to do instead.</source>
        <translation>Er steckt vielleicht fest. Erlaube ihm, mit demselben Aufruf weiterzumachen, oder sag ihm, was er stattdessen tun soll.</translation>
    </message>
    <message>
        <source>Tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Read a file</source>
        <translation>Eine Datei lesen</translation>
    </message>
    <message>
        <source>List a folder</source>
        <translation>Einen Ordner auflisten</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>Ordner</translation>
    </message>
    <message>
        <source>Fetch a web page</source>
        <translation>Eine Webseite abrufen</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Search the web</source>
        <translation>Im Web suchen</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>Search for code on the web</source>
        <translation>Im Web nach Code suchen</translation>
    </message>
    <message>
        <source>Start a subagent</source>
        <translation>Einen Subagenten starten</translation>
    </message>
    <message>
        <source>Subagent</source>
        <translation>Subagent</translation>
    </message>
    <message>
        <source>Load a skill</source>
        <translation>Einen Skill laden</translation>
    </message>
    <message>
        <source>Skill</source>
        <translation>Skill</translation>
    </message>
    <message>
        <source>Update the to-do list</source>
        <translation>Die To-do-Liste aktualisieren</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>Die To-do-Liste lesen</translation>
    </message>
    <message>
        <source>Use “%1”</source>
        <translation>„%1“ verwenden</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Betrifft</translation>
    </message>
    <message>
        <source>repeated %1 calls</source>
        <translation>wiederholte Aufrufe von %1</translation>
    </message>
    <message>
        <source>&amp;Always allow %1 in this session</source>
        <translation>%1 in dieser Sitzung &amp;immer erlauben</translation>
    </message>
    <message>
        <source>Always allow %1 in this &amp;project</source>
        <translation>%1 in diesem &amp;Projekt immer erlauben</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>This allows the agent to change any file in the project without asking, not only the ones it asks about now.</source>
        <translation>Damit darf der Agent jede Datei im Projekt ohne Nachfrage ändern, nicht nur die, nach denen er jetzt fragt.</translation>
    </message>
    <message>
        <source>This allows every request of this kind without asking, not only this one.</source>
        <translation>Damit ist jede Anfrage dieser Art ohne Nachfrage erlaubt, nicht nur diese.</translation>
    </message>
    <message numerus="yes">
        <source> The same holds for the other %n pattern(s).</source>
        <translation>
            <numerusform> Dasselbe gilt für das andere Muster.</numerusform>
            <numerusform> Dasselbe gilt für die %n anderen Muster.</numerusform>
        </translation>
    </message>
    <message>
        <source>Saves the rule %1: it also allows any other %2 command, whatever follows it (for example %3).</source>
        <translation>Speichert die Regel %1: Sie erlaubt auch jeden anderen %2-Befehl, egal was folgt (zum Beispiel %3).</translation>
    </message>
    <message>
        <source>Saves the rule %1: it allows exactly that and nothing else.</source>
        <translation>Speichert die Regel %1: Sie erlaubt genau das und nichts anderes.</translation>
    </message>
    <message>
        <source>Saves the rule %1, where “*” stands for any text: it also allows everything else that matches it.</source>
        <translation>Speichert die Regel %1, in der „*“ für beliebigen Text steht: Sie erlaubt auch alles andere, was dazu passt.</translation>
    </message>
</context>
<context>
    <name>PermissionRules</name>
    <message>
        <source>%1: %2"%3" is %4, which is not "allow", "ask" or "deny"; it is treated as "ask".</source>
        <translation>%1: %2„%3“ ist %4, also weder „allow“ noch „ask“ noch „deny“; es wird als „ask“ behandelt.</translation>
    </message>
    <message>
        <source>%1: %2"%3" must be "allow", "ask", "deny" or a map of them; it is %4 and is ignored.</source>
        <translation>%1: %2„%3“ muss „allow“, „ask“, „deny“ oder eine Map davon sein; es ist %4 und wird ignoriert.</translation>
    </message>
</context>
<context>
    <name>ProjectChoices</name>
    <message>
        <source>Catalogue</source>
        <translation>Katalog</translation>
    </message>
    <message>
        <source>Configured</source>
        <translation>Konfiguriert</translation>
    </message>
    <message>
        <source>Local servers</source>
        <translation>Lokale Server</translation>
    </message>
</context>
<context>
    <name>ProjectInstance</name>
    <message>
        <source>Model %1/%2 needs an SDK package qcode does not speak (%3).</source>
        <translation>Das Modell %1/%2 braucht ein SDK-Paket, das qcode nicht spricht (%3).</translation>
    </message>
    <message>
        <source>Model not found: %1/%2.</source>
        <translation>Modell nicht gefunden: %1/%2.</translation>
    </message>
    <message>
        <source>Did you mean: %1?</source>
        <translation>Meintest du: %1?</translation>
    </message>
</context>
<context>
    <name>PromptQueue</name>
    <message>
        <source>The queued prompt %1 was already sent or removed.</source>
        <translation>Der eingereihte Prompt %1 wurde bereits gesendet oder entfernt.</translation>
    </message>
    <message>
        <source>A subtask needs a prompt: remove the queued prompt instead.</source>
        <translation>Eine Teilaufgabe braucht einen Prompt: Entferne stattdessen den eingereihten Prompt.</translation>
    </message>
    <message>
        <source>A queued prompt cannot be empty: remove it instead.</source>
        <translation>Ein eingereihter Prompt darf nicht leer sein: Entferne ihn stattdessen.</translation>
    </message>
</context>
<context>
    <name>ProposedDiff</name>
    <message>
        <source>The file is deleted.</source>
        <translation>Die Datei wird gelöscht.</translation>
    </message>
</context>
<context>
    <name>ProviderError</name>
    <message>
        <source>The server answered with an HTML page instead of an API response.</source>
        <translation>Der Server hat mit einer HTML-Seite statt mit einer API-Antwort geantwortet.</translation>
    </message>
    <message>
        <source>The connection closed before the provider finished its answer.</source>
        <translation>Die Verbindung wurde geschlossen, bevor der Anbieter seine Antwort beendet hat.</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation>HTTP %1: %2</translation>
    </message>
    <message>
        <source>no details given</source>
        <translation>keine Details angegeben</translation>
    </message>
    <message>
        <source>The provider rejected the API key (%1). Check the key in the settings or in the provider's environment variable.</source>
        <translation>Der Anbieter hat den API-Schlüssel abgelehnt (%1). Prüfe den Schlüssel in den Einstellungen oder in der Umgebungsvariable des Anbieters.</translation>
    </message>
    <message>
        <source>The API key may not use this model or feature (%1). Check the key's permissions with the provider.</source>
        <translation>Der API-Schlüssel darf dieses Modell oder diese Funktion nicht verwenden (%1). Prüfe die Berechtigungen des Schlüssels beim Anbieter.</translation>
    </message>
    <message>
        <source>The provider does not know this model or address (%1). Check the model name and the base URL.</source>
        <translation>Der Anbieter kennt dieses Modell oder diese Adresse nicht (%1). Prüfe den Modellnamen und die Basis-URL.</translation>
    </message>
    <message>
        <source>The account has run out of quota or credit (%1). Add credit or change the plan with the provider, or choose another model.</source>
        <translation>Das Kontingent oder Guthaben des Kontos ist aufgebraucht (%1). Lade beim Anbieter Guthaben auf, wechsle den Tarif oder wähle ein anderes Modell.</translation>
    </message>
    <message numerus="yes">
        <source>The provider's rate limit was reached (%1). qcode will try again in %n second(s).</source>
        <translation>
            <numerusform>Das Ratenlimit des Anbieters ist erreicht (%1). qcode versucht es in %n Sekunde erneut.</numerusform>
            <numerusform>Das Ratenlimit des Anbieters ist erreicht (%1). qcode versucht es in %n Sekunden erneut.</numerusform>
        </translation>
    </message>
    <message>
        <source>The provider's rate limit was reached (%1). qcode will try again after a pause.</source>
        <translation>Das Ratenlimit des Anbieters ist erreicht (%1). qcode versucht es nach einer Pause erneut.</translation>
    </message>
    <message>
        <source>The provider is overloaded right now (%1). qcode will try again shortly.</source>
        <translation>Der Anbieter ist gerade überlastet (%1). qcode versucht es gleich erneut.</translation>
    </message>
    <message>
        <source>The conversation no longer fits the model's context window (%1). Compact the session or start a new one.</source>
        <translation>Das Gespräch passt nicht mehr in das Kontextfenster des Modells (%1). Verdichte die Sitzung oder beginne eine neue.</translation>
    </message>
    <message>
        <source>The request is too large for the provider (%1). Remove some images or attached files and try again.</source>
        <translation>Die Anfrage ist zu groß für den Anbieter (%1). Entferne einige Bilder oder angehängte Dateien und versuche es erneut.</translation>
    </message>
    <message>
        <source>The model produced a tool call the provider rejected (%1). qcode will ask again.</source>
        <translation>Das Modell hat einen Tool-Aufruf erzeugt, den der Anbieter abgelehnt hat (%1). qcode fragt erneut.</translation>
    </message>
    <message>
        <source>The provider rejected the request (%1). Check the model's options in the configuration.</source>
        <translation>Der Anbieter hat die Anfrage abgelehnt (%1). Prüfe die Optionen des Modells in der Konfiguration.</translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). qcode will try again.</source>
        <translation>Beim Anbieter ist ein interner Fehler aufgetreten (%1). qcode versucht es erneut.</translation>
    </message>
    <message>
        <source>The provider had an internal error (%1). Try again later.</source>
        <translation>Beim Anbieter ist ein interner Fehler aufgetreten (%1). Versuche es später erneut.</translation>
    </message>
    <message>
        <source>The connection to the provider failed (%1). Check the network and the provider's address; qcode will try again.</source>
        <translation>Die Verbindung zum Anbieter ist fehlgeschlagen (%1). Prüfe das Netzwerk und die Adresse des Anbieters; qcode versucht es erneut.</translation>
    </message>
    <message>
        <source>The provider did not answer in time (%1). qcode will try again.</source>
        <translation>Der Anbieter hat nicht rechtzeitig geantwortet (%1). qcode versucht es erneut.</translation>
    </message>
    <message>
        <source>The request was stopped before the provider finished.</source>
        <translation>Die Anfrage wurde abgebrochen, bevor der Anbieter fertig war.</translation>
    </message>
    <message>
        <source>The provider returned an error qcode does not recognise (%1).</source>
        <translation>Der Anbieter hat einen Fehler gemeldet, den qcode nicht kennt (%1).</translation>
    </message>
    <message>
        <source>Free usage exceeded, add credits to your account</source>
        <translation>Kostenloses Kontingent überschritten, lade Guthaben auf dein Konto</translation>
    </message>
    <message>
        <source>Provider is overloaded</source>
        <translation>Der Anbieter ist überlastet</translation>
    </message>
    <message>
        <source>Rate limited</source>
        <translation>Ratenlimit erreicht</translation>
    </message>
</context>
<context>
    <name>ProviderStatus</name>
    <message>
        <source>Key set in the config (options.apiKey)</source>
        <translation>Schlüssel in der Konfiguration gesetzt (options.apiKey)</translation>
    </message>
    <message>
        <source>Key in the system keychain</source>
        <translation>Schlüssel im System-Schlüsselbund</translation>
    </message>
    <message>
        <source>Key from %1</source>
        <translation>Schlüssel aus %1</translation>
    </message>
    <message>
        <source>Runs on this computer; no key needed</source>
        <translation>Läuft auf diesem Computer; kein Schlüssel nötig</translation>
    </message>
    <message>
        <source>No key (none may be needed)</source>
        <translation>Kein Schlüssel (vielleicht keiner nötig)</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>Kein Schlüssel</translation>
    </message>
</context>
<context>
    <name>RelativeTime</name>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message numerus="yes">
        <source>%n min ago</source>
        <translation>
            <numerusform>vor %n Min.</numerusform>
            <numerusform>vor %n Min.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h ago</source>
        <translation>
            <numerusform>vor %n Std.</numerusform>
            <numerusform>vor %n Std.</numerusform>
        </translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>gestern</translation>
    </message>
    <message numerus="yes">
        <source>%n days ago</source>
        <translation>
            <numerusform>vor %n Tag</numerusform>
            <numerusform>vor %n Tagen</numerusform>
        </translation>
    </message>
    <message>
        <source>Today</source>
        <translation>Heute</translation>
    </message>
    <message>
        <source>Yesterday</source>
        <translation>Gestern</translation>
    </message>
    <message>
        <source>Earlier</source>
        <translation>Früher</translation>
    </message>
</context>
<context>
    <name>RequestBuilder</name>
    <message>
        <source>system</source>
        <translation>System</translation>
    </message>
    <message>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>assistant</source>
        <translation>Assistent</translation>
    </message>
    <message>
        <source>tool</source>
        <translation>Tool</translation>
    </message>
    <message>
        <source>No model is selected for provider "%1". Choose a model and try again.</source>
        <translation>Für den Anbieter „%1“ ist kein Modell ausgewählt. Wähle ein Modell und versuche es erneut.</translation>
    </message>
    <message>
        <source>The address "%1" of provider "%2" is not an http(s) URL. Fix its baseURL in the configuration.</source>
        <translation>Die Adresse „%1“ des Anbieters „%2“ ist keine http(s)-URL. Korrigiere seine baseURL in der Konfiguration.</translation>
    </message>
    <message>
        <source>Provider "%1" uses a wire protocol qcode does not know (%2).</source>
        <translation>Der Anbieter „%1“ verwendet ein Übertragungsprotokoll, das qcode nicht kennt (%2).</translation>
    </message>
    <message>
        <source>A tool without a name cannot be offered to the model.</source>
        <translation>Ein Tool ohne Namen kann dem Modell nicht angeboten werden.</translation>
    </message>
    <message>
        <source>The tool "%1" is offered twice; tool names must be unique.</source>
        <translation>Das Tool „%1“ wird zweimal angeboten; Tool-Namen müssen eindeutig sein.</translation>
    </message>
    <message>
        <source>The tool call "%1" has no result before the next assistant turn; every tool call needs a result.</source>
        <translation>Der Tool-Aufruf „%1“ hat vor der nächsten Antwort des Assistenten kein Ergebnis; jeder Tool-Aufruf braucht ein Ergebnis.</translation>
    </message>
    <message>
        <source>A %1 message holds content that only another role may send; the conversation cannot be sent as it is.</source>
        <translation>Eine Nachricht der Rolle „%1“ enthält Inhalte, die nur eine andere Rolle senden darf; das Gespräch kann so nicht gesendet werden.</translation>
    </message>
    <message>
        <source>A tool call without an id or a tool name cannot be sent back to the model.</source>
        <translation>Ein Tool-Aufruf ohne ID oder Tool-Namen kann nicht an das Modell zurückgeschickt werden.</translation>
    </message>
    <message>
        <source>The result of tool "%1" (call "%2") has no matching tool call in the assistant turn before it.</source>
        <translation>Das Ergebnis des Tools „%1“ (Aufruf „%2“) hat keinen passenden Tool-Aufruf in der vorangehenden Antwort des Assistenten.</translation>
    </message>
    <message>
        <source>The tool call "%1" has no result; every tool call needs a result before the conversation continues.</source>
        <translation>Der Tool-Aufruf „%1“ hat kein Ergebnis; jeder Tool-Aufruf braucht ein Ergebnis, bevor das Gespräch weitergeht.</translation>
    </message>
    <message>
        <source>There is no message to send to the model.</source>
        <translation>Es gibt keine Nachricht, die an das Modell gesendet werden könnte.</translation>
    </message>
</context>
<context>
    <name>RunArgumentParser</name>
    <message>
        <source>--file needs a path.</source>
        <translation>--file braucht einen Pfad.</translation>
    </message>
    <message>
        <source>--model "%1" is not of the form provider/model.</source>
        <translation>--model „%1“ hat nicht die Form anbieter/modell.</translation>
    </message>
    <message>
        <source>--format "%1" is not one of: default, json.</source>
        <translation>--format „%1“ ist keiner von: default, json.</translation>
    </message>
    <message>
        <source>--continue and --session cannot be used together: --session already names the session to continue.</source>
        <translation>--continue und --session können nicht zusammen verwendet werden: --session nennt bereits die Sitzung, die fortgesetzt wird.</translation>
    </message>
    <message>
        <source>Try `qcode run --help`.</source>
        <translation>Siehe `qcode run --help`.</translation>
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
        <translation>Aufruf: qcode run [Optionen] [Nachricht…]

Sendet eine Nachricht an den Agenten, ohne ein Fenster zu öffnen, gibt die Antwort
aus und beendet sich. Die Nachricht besteht aus den angegebenen Wörtern, durch
Leerzeichen verbunden; ohne Wörter wird sie von der Standardeingabe gelesen, wenn
diese kein Terminal ist.

Optionen:
  --dir DIR                 Der Projektordner (Standard: der aktuelle Ordner).
  -m, --model provider/model
                            Das zu verwendende Modell, z. B. anthropic/claude-sonnet-4-5.
  --agent NAME              Der primäre Agent (Standard: der konfigurierte).
  -c, --continue            Die neueste Sitzung des Projekts fortsetzen.
  -s, --session ID          Die Sitzung mit dieser ID fortsetzen.
  -f, --file PATH           Eine Datei oder einen Ordner anhängen; für mehrere
                            wiederholen. Relative Pfade gelten ab dem Projektordner.
  --format default|json     default: die Antwort gestreamt auf der Standardausgabe,
                            Tool-Aktivität und Fehler auf der Standardfehlerausgabe.
                            json: jedes Ereignis als ein JSON-Objekt pro Zeile.
  --auto-approve            Jede Aktion erlauben, bei der die Berechtigungsregeln
                            fragen würden. Ohne diese Option wird sie abgelehnt.
  -h, --help                Diese Hilfe anzeigen.

Exit-Status: 0, wenn die Antwort fertig ist, auch wenn unterwegs eine Berechtigung
oder Frage abgelehnt wurde (die Ablehnung steht auf der Standardfehlerausgabe und in den
JSON-Ereignissen); 1, wenn der Lauf selbst fehlschlägt (er konnte nicht starten, oder der
Anbieter oder die Agentenschleife schlug fehl); 2 bei ungültigen Argumenten; 130 bei Unterbrechung.
Daten und Konfiguration folgen XDG_DATA_HOME und XDG_CONFIG_HOME
(QCODE_DATA_DIR legt den Datenordner fest).
</translation>
    </message>
</context>
<context>
    <name>RunPrinter</name>
    <message>
        <source>unknown error</source>
        <translation>unbekannter Fehler</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>(failed: %1)</source>
        <translation>(fehlgeschlagen: %1)</translation>
    </message>
    <message>
        <source>! Retrying (attempt %1): %2</source>
        <translation>! Wiederholung (Versuch %1): %2</translation>
    </message>
    <message>
        <source>! Permission granted: %1</source>
        <translation>! Berechtigung erteilt: %1</translation>
    </message>
    <message>
        <source>! Permission refused: %1. Run with --auto-approve to allow it.</source>
        <translation>! Berechtigung verweigert: %1. Starte mit --auto-approve, um sie zu erlauben.</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message>
        <source>Aborted.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
</context>
<context>
    <name>RunRequestResolver</name>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>Der Ordner %1 existiert nicht.</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 ist kein Ordner.</translation>
    </message>
    <message>
        <source>File not found: %1 (looked for %2).</source>
        <translation>Datei nicht gefunden: %1 (gesucht wurde %2).</translation>
    </message>
    <message>
        <source>File %1 cannot be read.</source>
        <translation>Die Datei %1 kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>No message: give one as words after `qcode run`, or pipe it in on standard input.</source>
        <translation>Keine Nachricht: Gib sie als Wörter nach `qcode run` an oder leite sie über die Standardeingabe weiter.</translation>
    </message>
</context>
<context>
    <name>RunSessionLookup</name>
    <message>
        <source>Session not found: %1.</source>
        <translation>Sitzung nicht gefunden: %1.</translation>
    </message>
    <message>
        <source>No session to continue in %1: run without --continue to start one.</source>
        <translation>Keine Sitzung zum Fortsetzen in %1: Starte ohne --continue, um eine zu beginnen.</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>Die Sitzung %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is too large to be a session export (%2 MB).</source>
        <translation>%1 ist zu groß für einen Sitzungsexport (%2 MB).</translation>
    </message>
</context>
<context>
    <name>SessionIdLookup</name>
    <message>
        <source>Session not found: %1. `qcode sessions` lists the stored sessions.</source>
        <translation>Sitzung nicht gefunden: %1. `qcode sessions` listet die gespeicherten Sitzungen auf.</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weitere</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 is the beginning of %n session id(s); give more of the id:</source>
        <translation>
            <numerusform>%1 ist der Anfang von %n Sitzungs-ID; gib mehr von der ID an:</numerusform>
            <numerusform>%1 ist der Anfang von %n Sitzungs-IDs; gib mehr von der ID an:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionMarkdown</name>
    <message numerus="yes">
        <source>… %n more line(s)</source>
        <translation>
            <numerusform>… %n weitere Zeile</numerusform>
            <numerusform>… %n weitere Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>(pending)</source>
        <translation>(ausstehend)</translation>
    </message>
    <message>
        <source>(running)</source>
        <translation>(läuft)</translation>
    </message>
    <message>
        <source>[Old tool result content cleared]</source>
        <translation>[Alter Inhalt des Tool-Ergebnisses entfernt]</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>**Error:** %1</source>
        <translation>**Fehler:** %1</translation>
    </message>
    <message>
        <source>## Assistant (%1 · %2)</source>
        <translation>## Assistent (%1 · %2)</translation>
    </message>
    <message>
        <source>## You</source>
        <translation>## Du</translation>
    </message>
    <message>
        <source>Attached: %1 (%2)</source>
        <translation>Angehängt: %1 (%2)</translation>
    </message>
    <message>
        <source>_Changed: %1_</source>
        <translation>_Geändert: %1_</translation>
    </message>
    <message>
        <source>_Subtask for @%1: %2_</source>
        <translation>_Teilaufgabe für @%1: %2_</translation>
    </message>
    <message>
        <source>_The conversation was summarized here._</source>
        <translation>_Das Gespräch wurde hier zusammengefasst._</translation>
    </message>
    <message>
        <source>In %1, begun %2</source>
        <translation>In %1, begonnen %2</translation>
    </message>
</context>
<context>
    <name>SessionRevert</name>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>Die Sitzung %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Part %1 of message %2 is not in session %3.</source>
        <translation>Teil %1 der Nachricht %2 gehört nicht zur Sitzung %3.</translation>
    </message>
    <message>
        <source>Message %1 is not in session %2.</source>
        <translation>Die Nachricht %1 gehört nicht zur Sitzung %2.</translation>
    </message>
    <message>
        <source>The engine stopped.</source>
        <translation>Die Engine wurde beendet.</translation>
    </message>
    <message>
        <source>The files of session %1 could not be restored from snapshot %2; the revert is kept.</source>
        <translation>Die Dateien der Sitzung %1 konnten nicht aus dem Snapshot %2 wiederhergestellt werden; das Zurücksetzen bleibt bestehen.</translation>
    </message>
</context>
<context>
    <name>SessionSearch</name>
    <message>
        <source>The sessions could not be searched: %1</source>
        <translation>Die Sitzungen konnten nicht durchsucht werden: %1</translation>
    </message>
</context>
<context>
    <name>SessionShell</name>
    <message>
        <source>The engine stopped while the command ran.</source>
        <translation>Die Engine wurde beendet, während der Befehl lief.</translation>
    </message>
</context>
<context>
    <name>SessionTransfer</name>
    <message>
        <source>There is no session %1 to export.</source>
        <translation>Es gibt keine Sitzung %1 zum Exportieren.</translation>
    </message>
    <message>
        <source>This is not a session export: the JSON is invalid at byte %1 (%2).</source>
        <translation>Das ist kein Sitzungsexport: Das JSON ist bei Byte %1 ungültig (%2).</translation>
    </message>
    <message>
        <source>This is not a session export: expected an object with "info" and "messages".</source>
        <translation>Das ist kein Sitzungsexport: Erwartet wurde ein Objekt mit „info“ und „messages“.</translation>
    </message>
    <message>
        <source>The exported session is invalid: %1</source>
        <translation>Die exportierte Sitzung ist ungültig: %1</translation>
    </message>
    <message>
        <source>Message %1 of the export is invalid: %2</source>
        <translation>Nachricht %1 des Exports ist ungültig: %2</translation>
    </message>
    <message>
        <source>Message %1 belongs to session %2, not to the exported session %3.</source>
        <translation>Nachricht %1 gehört zur Sitzung %2, nicht zur exportierten Sitzung %3.</translation>
    </message>
    <message>
        <source>Part %1 belongs to session %2, not to the exported session %3.</source>
        <translation>Teil %1 gehört zur Sitzung %2, nicht zur exportierten Sitzung %3.</translation>
    </message>
    <message>
        <source>Session %1 ("%2") is already here. Delete it first to import this copy.</source>
        <translation>Die Sitzung %1 („%2“) ist bereits vorhanden. Lösche sie zuerst, um diese Kopie zu importieren.</translation>
    </message>
    <message>
        <source>This is not a session export: it is empty.</source>
        <translation>Das ist kein Sitzungsexport: Die Datei ist leer.</translation>
    </message>
    <message>
        <source>Message %1 of the export is already stored, in session %2. Nothing was imported: an import never replaces what is here.</source>
        <translation>Nachricht %1 des Exports ist bereits gespeichert, in Sitzung %2. Nichts wurde importiert: ein Import ersetzt nie, was schon da ist.</translation>
    </message>
    <message>
        <source>Part %1 of the export is already stored, in session %2. Nothing was imported: an import never replaces what is here.</source>
        <translation>Teil %1 des Exports ist bereits gespeichert, in Sitzung %2. Nichts wurde importiert: ein Import ersetzt nie, was schon da ist.</translation>
    </message>
    <message>
        <source>Message %1 is in the export twice.</source>
        <translation>Nachricht %1 steht zweimal im Export.</translation>
    </message>
    <message>
        <source>Part %1 belongs to message %2, not to the message %3 it is listed under.</source>
        <translation>Teil %1 gehört zu Nachricht %2, nicht zu Nachricht %3, unter der er steht.</translation>
    </message>
    <message>
        <source>Part %1 is in the export twice.</source>
        <translation>Teil %1 steht zweimal im Export.</translation>
    </message>
    <message>
        <source>Message %1 answers message %2, which is not in the export.</source>
        <translation>Nachricht %1 antwortet auf Nachricht %2, die nicht im Export ist.</translation>
    </message>
</context>
<context>
    <name>Store</name>
    <message>
        <source>Cannot create the folder %1 for the database. Check that you may write there, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation>Der Ordner %1 für die Datenbank kann nicht angelegt werden. Prüfe, ob du dort schreiben darfst, oder setze QCODE_DATA_DIR auf einen Ordner, der dir gehört.</translation>
    </message>
    <message>
        <source>Cannot create the database %1: its folder is read-only. Make the folder writable, or set QCODE_DATA_DIR to a folder you own.</source>
        <translation>Die Datenbank %1 kann nicht angelegt werden: Der Ordner ist schreibgeschützt. Mach den Ordner beschreibbar oder setze QCODE_DATA_DIR auf einen Ordner, der dir gehört.</translation>
    </message>
    <message>
        <source>%1 is not a file, so it cannot be qcode's database. Move it away, or set QCODE_DATA_DIR to another folder.</source>
        <translation>%1 ist keine Datei und kann daher nicht die Datenbank von qcode sein. Verschiebe es oder setze QCODE_DATA_DIR auf einen anderen Ordner.</translation>
    </message>
    <message>
        <source>Cannot read the database %1 (%2). Check its permissions.</source>
        <translation>Die Datenbank %1 kann nicht gelesen werden (%2). Prüfe ihre Berechtigungen.</translation>
    </message>
    <message>
        <source>%1 is not an SQLite database, or it is damaged. qcode left it untouched. Move it aside (or restore a backup) and start qcode again to create a new one.</source>
        <translation>%1 ist keine SQLite-Datenbank oder ist beschädigt. qcode hat sie nicht angerührt. Verschiebe sie (oder stelle eine Sicherung wieder her) und starte qcode erneut, um eine neue anzulegen.</translation>
    </message>
    <message>
        <source>The database %1 is read-only. qcode needs to write to it: give yourself write permission on the file, or copy it somewhere writable and set QCODE_DATA_DIR.</source>
        <translation>Die Datenbank %1 ist schreibgeschützt. qcode muss in sie schreiben: Gib dir Schreibrechte auf die Datei oder kopiere sie an einen beschreibbaren Ort und setze QCODE_DATA_DIR.</translation>
    </message>
    <message>
        <source>open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Another program is using the database %1. Close other qcode or OpenCode windows that use it and try again.</source>
        <translation>Ein anderes Programm verwendet die Datenbank %1. Schließe andere qcode- oder OpenCode-Fenster, die sie verwenden, und versuche es erneut.</translation>
    </message>
    <message>
        <source>The database %1 is damaged. qcode did not change it. Move it aside (or restore a backup) and start qcode again.</source>
        <translation>Die Datenbank %1 ist beschädigt. qcode hat sie nicht verändert. Verschiebe sie (oder stelle eine Sicherung wieder her) und starte qcode erneut.</translation>
    </message>
    <message>
        <source>The database %1 or its folder is read-only. Give yourself write permission on both.</source>
        <translation>Die Datenbank %1 oder ihr Ordner ist schreibgeschützt. Gib dir Schreibrechte auf beide.</translation>
    </message>
    <message>
        <source>The disk holding %1 is full. Free some space and try again.</source>
        <translation>Der Datenträger mit %1 ist voll. Gib etwas Speicherplatz frei und versuche es erneut.</translation>
    </message>
    <message>
        <source>Could not %1 in the database %2.</source>
        <translation>Fehler beim %1 in der Datenbank %2.</translation>
    </message>
    <message>
        <source>Internal error: the database %1 was used from the wrong thread.</source>
        <translation>Interner Fehler: Die Datenbank %1 wurde vom falschen Thread aus verwendet.</translation>
    </message>
    <message>
        <source>prepare a query</source>
        <translation>Vorbereiten einer Abfrage</translation>
    </message>
    <message>
        <source>read the schema version</source>
        <translation>Lesen der Schemaversion</translation>
    </message>
    <message>
        <source>The database %1 was written by a newer qcode (schema %2; this qcode knows up to %3). Update qcode, or move the file aside to start afresh. The file was not changed.</source>
        <translation>Die Datenbank %1 wurde von einem neueren qcode geschrieben (Schema %2; dieses qcode kennt bis %3). Aktualisiere qcode oder verschiebe die Datei, um neu anzufangen. Die Datei wurde nicht verändert.</translation>
    </message>
    <message>
        <source>read the schema</source>
        <translation>Lesen des Schemas</translation>
    </message>
    <message>
        <source>configure the connection</source>
        <translation>Einrichten der Verbindung</translation>
    </message>
    <message>
        <source>upgrade the schema to version %1</source>
        <translation>Aktualisieren des Schemas auf Version %1</translation>
    </message>
    <message>
        <source>record the schema version</source>
        <translation>Speichern der Schemaversion</translation>
    </message>
    <message>
        <source>start a transaction</source>
        <translation>Starten einer Transaktion</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>Abschließen der Transaktion</translation>
    </message>
    <message>
        <source>Session %1 has damaged data in the database.</source>
        <translation>Die Sitzung %1 hat beschädigte Daten in der Datenbank.</translation>
    </message>
    <message>
        <source>Message %1 has damaged data in the database.</source>
        <translation>Die Nachricht %1 hat beschädigte Daten in der Datenbank.</translation>
    </message>
    <message>
        <source>Part %1 has damaged data in the database.</source>
        <translation>Teil %1 hat beschädigte Daten in der Datenbank.</translation>
    </message>
    <message>
        <source>save message %1</source>
        <translation>Speichern der Nachricht %1</translation>
    </message>
    <message>
        <source>save part %1</source>
        <translation>Speichern des Teils %1</translation>
    </message>
    <message>
        <source>delete message %1</source>
        <translation>Löschen der Nachricht %1</translation>
    </message>
    <message>
        <source>delete part %1</source>
        <translation>Löschen des Teils %1</translation>
    </message>
    <message>
        <source>read parts</source>
        <translation>Lesen der Teile</translation>
    </message>
    <message>
        <source>read message %1</source>
        <translation>Lesen der Nachricht %1</translation>
    </message>
    <message>
        <source>read the messages of session %1</source>
        <translation>Lesen der Nachrichten der Sitzung %1</translation>
    </message>
    <message>
        <source>read messages</source>
        <translation>Lesen der Nachrichten</translation>
    </message>
    <message>
        <source>read the usage of session %1</source>
        <translation>Lesen des Verbrauchs der Sitzung %1</translation>
    </message>
    <message>
        <source>save project %1</source>
        <translation>Speichern des Projekts %1</translation>
    </message>
    <message>
        <source>read project %1</source>
        <translation>Lesen des Projekts %1</translation>
    </message>
    <message>
        <source>look up the project of %1</source>
        <translation>Nachschlagen des Projekts von %1</translation>
    </message>
    <message>
        <source>save session %1</source>
        <translation>Speichern der Sitzung %1</translation>
    </message>
    <message>
        <source>read session %1</source>
        <translation>Lesen der Sitzung %1</translation>
    </message>
    <message>
        <source>list the sessions of project %1</source>
        <translation>Auflisten der Sitzungen des Projekts %1</translation>
    </message>
    <message>
        <source>list the child sessions of %1</source>
        <translation>Auflisten der Untersitzungen von %1</translation>
    </message>
    <message>
        <source>find the child sessions of %1</source>
        <translation>Finden der Untersitzungen von %1</translation>
    </message>
    <message>
        <source>delete session %1</source>
        <translation>Löschen der Sitzung %1</translation>
    </message>
    <message>
        <source>save the todo list of %1</source>
        <translation>Speichern der To-do-Liste von %1</translation>
    </message>
    <message>
        <source>read the todo list of %1</source>
        <translation>Lesen der To-do-Liste von %1</translation>
    </message>
    <message>
        <source>read the permission rules of %1</source>
        <translation>Lesen der Berechtigungsregeln von %1</translation>
    </message>
    <message>
        <source>The saved permission rules of project %1 are damaged.</source>
        <translation>Die gespeicherten Berechtigungsregeln des Projekts %1 sind beschädigt.</translation>
    </message>
    <message>
        <source>save the permission rules of %1</source>
        <translation>Speichern der Berechtigungsregeln von %1</translation>
    </message>
    <message>
        <source>list the sessions</source>
        <translation>die Sitzungen auflisten</translation>
    </message>
    <message>
        <source>add message %1</source>
        <translation>Nachricht %1 hinzufügen</translation>
    </message>
    <message>
        <source>add part %1</source>
        <translation>Teil %1 hinzufügen</translation>
    </message>
    <message>
        <source>read part %1</source>
        <translation>Teil %1 lesen</translation>
    </message>
    <message>
        <source>add session %1</source>
        <translation>Sitzung %1 hinzufügen</translation>
    </message>
    <message>
        <source>read unfinished tool parts</source>
        <translation>nicht abgeschlossene Werkzeugteile lesen</translation>
    </message>
</context>
<context>
    <name>ToolBody</name>
    <message>
        <source>Stopped when it exceeded its timeout of %1.</source>
        <translation>Abgebrochen, als das Zeitlimit von %1 überschritten war.</translation>
    </message>
    <message>
        <source>Stopped by you.</source>
        <translation>Von dir abgebrochen.</translation>
    </message>
    <message>
        <source>(no answer)</source>
        <translation>(keine Antwort)</translation>
    </message>
    <message>
        <source>[Old tool result content cleared]</source>
        <translation>[Alter Inhalt des Tool-Ergebnisses entfernt]</translation>
    </message>
    <message>
        <source>Output shortened for the model; the whole of it is in %1.</source>
        <translation>Ausgabe für das Modell gekürzt; die vollständige Ausgabe steht in %1.</translation>
    </message>
    <message>
        <source>Output shortened for the model.</source>
        <translation>Ausgabe für das Modell gekürzt.</translation>
    </message>
    <message>
        <source>Exit code %1</source>
        <translation>Exit-Code %1</translation>
    </message>
    <message>
        <source>Ended by a signal</source>
        <translation>Durch ein Signal beendet</translation>
    </message>
</context>
<context>
    <name>ToolPresentation</name>
    <message>
        <source>Run a command</source>
        <translation>Einen Befehl ausführen</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>%1 ausführen</translation>
    </message>
    <message>
        <source>Read a file</source>
        <translation>Eine Datei lesen</translation>
    </message>
    <message>
        <source>lines %1–%2</source>
        <translation>Zeilen %1–%2</translation>
    </message>
    <message>
        <source>from line %1</source>
        <translation>ab Zeile %1</translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n Zeile</numerusform>
            <numerusform>%n Zeilen</numerusform>
        </translation>
    </message>
    <message>
        <source>Read %1</source>
        <translation>%1 lesen</translation>
    </message>
    <message>
        <source>Write a file</source>
        <translation>Eine Datei schreiben</translation>
    </message>
    <message>
        <source>new file</source>
        <translation>neue Datei</translation>
    </message>
    <message>
        <source>Write %1</source>
        <translation>%1 schreiben</translation>
    </message>
    <message>
        <source>Edit a file</source>
        <translation>Eine Datei bearbeiten</translation>
    </message>
    <message>
        <source>every occurrence</source>
        <translation>jedes Vorkommen</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 bearbeiten</translation>
    </message>
    <message>
        <source>Apply a patch</source>
        <translation>Einen Patch anwenden</translation>
    </message>
    <message>
        <source>Patch %1</source>
        <translation>%1 patchen</translation>
    </message>
    <message numerus="yes">
        <source>Patch %n file(s)</source>
        <translation>
            <numerusform>%n Datei patchen</numerusform>
            <numerusform>%n Dateien patchen</numerusform>
        </translation>
    </message>
    <message>
        <source> in %1</source>
        <translation> in %1</translation>
    </message>
    <message>
        <source>Find files</source>
        <translation>Dateien finden</translation>
    </message>
    <message numerus="yes">
        <source>first %n file(s)</source>
        <translation>
            <numerusform>erste %n Datei</numerusform>
            <numerusform>erste %n Dateien</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
    <message>
        <source>Find files %1</source>
        <translation>Dateien %1 finden</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suchen</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>Search for %1</source>
        <translation>Nach %1 suchen</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>List a folder</source>
        <translation>Einen Ordner auflisten</translation>
    </message>
    <message>
        <source>List the project folder</source>
        <translation>Den Projektordner auflisten</translation>
    </message>
    <message>
        <source>List %1</source>
        <translation>%1 auflisten</translation>
    </message>
    <message>
        <source>Fetch a web page</source>
        <translation>Eine Webseite abrufen</translation>
    </message>
    <message>
        <source>Fetch %1</source>
        <translation>%1 abrufen</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>Aufgabe</translation>
    </message>
    <message>
        <source>Task: %1</source>
        <translation>Aufgabe: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n done</source>
        <translation>
            <numerusform>%1 von %n erledigt</numerusform>
            <numerusform>%1 von %n erledigt</numerusform>
        </translation>
    </message>
    <message>
        <source>Ask a question</source>
        <translation>Eine Frage stellen</translation>
    </message>
    <message numerus="yes">
        <source>Ask %n question(s)</source>
        <translation>
            <numerusform>%n Frage stellen</numerusform>
            <numerusform>%n Fragen stellen</numerusform>
        </translation>
    </message>
    <message>
        <source>Invalid tool call</source>
        <translation>Ungültiger Tool-Aufruf</translation>
    </message>
    <message>
        <source>Invalid call of %1</source>
        <translation>Ungültiger Aufruf von %1</translation>
    </message>
    <message>
        <source>Unnamed tool</source>
        <translation>Unbenanntes Tool</translation>
    </message>
    <message>
        <source>Update the to-do list</source>
        <translation>Die To-do-Liste aktualisieren</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>Die To-do-Liste lesen</translation>
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
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1h %2m</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Running %1</source>
        <translation>Läuft seit %1</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Done in %1</source>
        <translation>Fertig nach %1</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>TransferArgumentParser</name>
    <message>
        <source>Missing %1.</source>
        <translation>%1 fehlt.</translation>
    </message>
    <message>
        <source>Expected one %1, got %2: %3.</source>
        <translation>Erwartet: eine %1, erhalten: %2: %3.</translation>
    </message>
    <message>
        <source>session id</source>
        <translation>Sitzungs-ID</translation>
    </message>
    <message>
        <source>--format "%1" is not one of: json, markdown.</source>
        <translation>--format „%1“ ist keiner von: json, markdown.</translation>
    </message>
    <message>
        <source>file to import</source>
        <translation>zu importierende Datei</translation>
    </message>
    <message>
        <source>Unexpected argument: %1.</source>
        <translation>Unerwartetes Argument: %1.</translation>
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
        <translation>Aufruf: qcode export [Optionen] &lt;Sitzungs-ID&gt;

Schreibt eine gespeicherte Sitzung mit allen Nachrichten und Teilen, ohne ein Fenster
zu öffnen. Die ID darf auf jeden Anfang gekürzt werden, der genau eine Sitzung
bezeichnet (`qcode sessions` listet sie auf).

Optionen:
  --format json|markdown    json: OpenCodes Exportformat, wie `opencode export` es ausgibt,
                            für `qcode import` oder `opencode import`. markdown: ein
                            Dokument zum Lesen. Standard: json, oder markdown, wenn
                            --output auf .md endet.
  -o, --output FILE         In FILE schreiben statt auf die Standardausgabe; die Datei
                            wird ganz oder gar nicht ersetzt.
  -h, --help                Diese Hilfe anzeigen.

Exit-Status: 0, wenn geschrieben, 1, wenn die Sitzung oder die Datenbank nicht gelesen
oder die Datei nicht geschrieben werden kann, 2 bei ungültigen Argumenten.
Daten folgen XDG_DATA_HOME oder dem in den Einstellungen gewählten Datenordner;
QCODE_DATA_DIR hat Vorrang vor beiden.
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
        <translation>Aufruf: qcode import [Optionen] &lt;DATEI&gt;

Fügt eine Sitzung aus einer Exportdatei (OpenCodes Export-JSON, wie `qcode export` oder
`opencode export` es schreibt) der Datenbank hinzu und gibt ihre ID und ihren Titel aus.
DATEI - liest den Export von der Standardeingabe. Eine Datei, die kein gültiger Export
ist, oder eine Sitzung, die schon vorhanden ist, ändert nichts.

Optionen:
  -h, --help                Diese Hilfe anzeigen.

Exit-Status: 0, wenn importiert, 1, wenn die Datei nicht gelesen oder importiert werden
kann, 2 bei ungültigen Argumenten.
Daten folgen XDG_DATA_HOME oder dem in den Einstellungen gewählten Datenordner;
QCODE_DATA_DIR hat Vorrang vor beiden.
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
        <translation>Aufruf: qcode sessions [Optionen]

Listet die gespeicherten Sitzungen auf, die zuletzt geänderte zuerst: ID, letzte
Änderung, Titel. Sitzungen, die Subagenten innerhalb einer anderen ausgeführt haben,
werden ausgelassen.

Optionen:
  --dir DIR                 Nur die Sitzungen, die in DIR oder einem Ordner darin
                            begonnen wurden.
  -h, --help                Diese Hilfe anzeigen.

Exit-Status: 0, wenn aufgelistet, 1, wenn die Datenbank nicht gelesen werden kann,
2 bei ungültigen Argumenten.
</translation>
    </message>
</context>
<context>
    <name>TransferCommand</name>
    <message>
        <source>Try `qcode %1 --help`.</source>
        <translation>Siehe `qcode %1 --help`.</translation>
    </message>
    <message>
        <source>Session not found: %1. There is no database at %2 yet.</source>
        <translation>Sitzung nicht gefunden: %1. Unter %2 gibt es noch keine Datenbank.</translation>
    </message>
    <message>
        <source>Cannot write to standard output.</source>
        <translation>Die Standardausgabe kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>The session %1 was imported, but standard output cannot be written.</source>
        <translation>Die Sitzung %1 wurde importiert, aber die Standardausgabe kann nicht geschrieben werden.</translation>
    </message>
    <message>
        <source>standard input</source>
        <translation>Standardeingabe</translation>
    </message>
    <message>
        <source>%1 is a folder, not a session export.</source>
        <translation>%1 ist ein Ordner, kein Sitzungsexport.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>Cannot read standard input.</source>
        <translation>Die Standardeingabe kann nicht gelesen werden.</translation>
    </message>
    <message>
        <source>%1 is too large to be a session export (more than %2 MB).</source>
        <translation>%1 ist zu groß für einen Sitzungsexport (mehr als %2 MB).</translation>
    </message>
    <message>
        <source>Unknown command "%1".</source>
        <translation>Unbekannter Befehl „%1“.</translation>
    </message>
</context>
<context>
    <name>UserConfigWriter</name>
    <message>
        <source>The permission %1 for “%2” must be "allow", "ask" or "deny".</source>
        <translation>Die Berechtigung %1 für „%2“ muss „allow“, „ask“ oder „deny“ sein.</translation>
    </message>
    <message>
        <source>The permission %1 must be "allow", "ask" or "deny", or a map of patterns to those.</source>
        <translation>Die Berechtigung %1 muss „allow“, „ask“ oder „deny“ sein oder eine Map von Mustern auf diese Werte.</translation>
    </message>
    <message>
        <source>%1 cannot be read (%2), so qcode has not changed it.</source>
        <translation>%1 kann nicht gelesen werden (%2), daher hat qcode die Datei nicht verändert.</translation>
    </message>
    <message>
        <source>%1 has comments or trailing commas (line %2). qcode rewrites this file and would lose them, so it has not changed it; remove them, or keep hand-written settings in opencode.jsonc.</source>
        <translation>%1 enthält Kommentare oder nachgestellte Kommas (Zeile %2). qcode schreibt diese Datei neu und würde sie verlieren, daher hat es die Datei nicht verändert; entferne sie oder lege handgeschriebene Einstellungen in opencode.jsonc ab.</translation>
    </message>
    <message>
        <source>%1 is not valid JSON: %2 at line %3, column %4. qcode has not changed it; correct the file, then try again.</source>
        <translation>%1 ist kein gültiges JSON: %2 in Zeile %3, Spalte %4. qcode hat die Datei nicht verändert; korrigiere sie und versuche es dann erneut.</translation>
    </message>
    <message>
        <source>%1 must hold a JSON object { … }; qcode has not changed it.</source>
        <translation>%1 muss ein JSON-Objekt { … } enthalten; qcode hat die Datei nicht verändert.</translation>
    </message>
    <message>
        <source>In %1, "%2" is not an object; qcode has not changed the file. Correct or remove that entry, then try again.</source>
        <translation>In %1 ist „%2“ kein Objekt; qcode hat die Datei nicht verändert. Korrigiere oder entferne diesen Eintrag und versuche es dann erneut.</translation>
    </message>
    <message>
        <source>The folder %1 cannot be created, so the settings were not saved.</source>
        <translation>Der Ordner %1 kann nicht angelegt werden, daher wurden die Einstellungen nicht gespeichert.</translation>
    </message>
    <message>
        <source>%1 cannot be written (%2); the settings were not saved.</source>
        <translation>%1 kann nicht geschrieben werden (%2); die Einstellungen wurden nicht gespeichert.</translation>
    </message>
    <message>
        <source>“%1” is not a model; write it as provider/model, such as anthropic/claude-sonnet-4-5.</source>
        <translation>„%1“ ist kein Modell; schreibe es als anbieter/modell, etwa anthropic/claude-sonnet-4-5.</translation>
    </message>
    <message>
        <source>“%1” is not a model; write it as provider/model, such as anthropic/claude-haiku-4-5.</source>
        <translation>„%1“ ist kein Modell; schreibe es als anbieter/modell, etwa anthropic/claude-haiku-4-5.</translation>
    </message>
    <message>
        <source>The default agent needs a name.</source>
        <translation>Der Standard-Agent braucht einen Namen.</translation>
    </message>
    <message>
        <source>A permission needs a name, such as edit or bash.</source>
        <translation>Eine Berechtigung braucht einen Namen, etwa edit oder bash.</translation>
    </message>
    <message>
        <source>%1 defines no provider “%2”; it may have been removed already.</source>
        <translation>%1 definiert keinen Anbieter „%2“; vielleicht wurde er schon entfernt.</translation>
    </message>
</context>
<context>
    <name>UserMessageBuilder</name>
    <message>
        <source>The message id is not valid: %1</source>
        <translation>Die Nachrichten-ID ist ungültig: %1</translation>
    </message>
    <message>
        <source>A part id is not valid: %1</source>
        <translation>Eine Teil-ID ist ungültig: %1</translation>
    </message>
    <message>
        <source>The part id %1 is given twice.</source>
        <translation>Die Teil-ID %1 ist doppelt angegeben.</translation>
    </message>
    <message>
        <source>No agent is chosen and there is no default agent.</source>
        <translation>Kein Agent ist gewählt und es gibt keinen Standard-Agenten.</translation>
    </message>
    <message>
        <source>No model is chosen: pick a model or configure a default one.</source>
        <translation>Kein Modell ist gewählt: Wähle ein Modell oder konfiguriere ein Standardmodell.</translation>
    </message>
</context>
<context>
    <name>YamlReader</name>
    <message>
        <source>this line does not fit the structure above it</source>
        <translation>diese Zeile passt nicht zur Struktur darüber</translation>
    </message>
    <message>
        <source>a quoted value is never closed</source>
        <translation>ein Wert in Anführungszeichen wird nie geschlossen</translation>
    </message>
    <message>
        <source>a tab is used for indentation; YAML indents with spaces</source>
        <translation>zum Einrücken wird ein Tabulator verwendet; YAML rückt mit Leerzeichen ein</translation>
    </message>
    <message>
        <source>a [ or { is never closed</source>
        <translation>ein [ oder { wird nie geschlossen</translation>
    </message>
    <message>
        <source>an unknown escape \%1 in a double-quoted value</source>
        <translation>eine unbekannte Escape-Folge \%1 in einem Wert in doppelten Anführungszeichen</translation>
    </message>
    <message>
        <source>": " cannot stand here: the line is indented too far, or a value that contains ": " needs quotes</source>
        <translation>„: “ darf hier nicht stehen: Die Zeile ist zu weit eingerückt, oder ein Wert, der „: “ enthält, braucht Anführungszeichen</translation>
    </message>
    <message>
        <source>this is not valid YAML (%1)</source>
        <translation>das ist kein gültiges YAML (%1)</translation>
    </message>
    <message>
        <source>YAML anchors (&amp;), aliases (*) and tags (!) are not supported in front matter; put a text that starts with one of them in quotes</source>
        <translation>YAML-Anker (&amp;), -Aliase (*) und -Tags (!) werden im Front Matter nicht unterstützt; setzen Sie einen Text, der mit einem davon beginnt, in Anführungszeichen</translation>
    </message>
    <message>
        <source>the values are nested too deeply</source>
        <translation>die Werte sind zu tief verschachtelt</translation>
    </message>
    <message>
        <source>a key must be a plain text, not a list or a map</source>
        <translation>ein Schlüssel muss ein einfacher Text sein, keine Liste und keine Zuordnung</translation>
    </message>
    <message>
        <source>a key must be a plain text</source>
        <translation>ein Schlüssel muss ein einfacher Text sein</translation>
    </message>
    <message>
        <source>the key "%1" is given twice</source>
        <translation>der Schlüssel „%1“ ist doppelt angegeben</translation>
    </message>
    <message>
        <source>expected a "key: value" line, found "%1"</source>
        <translation>eine Zeile „Schlüssel: Wert“ erwartet, gefunden „%1“</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Project folder to open.</source>
        <translation>Zu öffnender Projektordner.</translation>
    </message>
    <message>
        <source>qcode cannot start</source>
        <translation>qcode kann nicht starten</translation>
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
        <translation>qcode – ein Programmier-Agent für den Desktop.

Befehle (jeder mit --help):
  qcode run [Nachricht…]  Eine Nachricht ohne Fenster im Terminal
                          beantworten.
  qcode export ID         Eine Sitzung als OpenCodes Export-JSON oder
                          als Markdown schreiben.
  qcode import DATEI      Eine Sitzung aus einer Exportdatei hinzufügen.
  qcode sessions          Die gespeicherten Sitzungen auflisten.

Umgebung: QCODE_DATA_DIR legt fest, wo die Datenbank liegt.</translation>
    </message>
    <message>
        <source>Open a window of its own even when qcode is already running (by default the folder opens in the running window).</source>
        <translation>Ein eigenes Fenster öffnen, auch wenn qcode schon läuft (sonst öffnet sich der Ordner im laufenden Fenster).</translation>
    </message>
</context>
<context>
    <name>qcode::AgentPicker</name>
    <message>
        <source>No agent</source>
        <translation>Kein Agent</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Agent for the next prompt: %1 (Ctrl+. and Ctrl+Shift+. in the prompt switch agents)</source>
        <translation>Agent für den nächsten Prompt: %1 (Strg+. und Strg+Umschalt+. im Prompt wechseln den Agenten)</translation>
    </message>
</context>
<context>
    <name>qcode::AttachmentChip</name>
    <message>
        <source>Attachment: %1</source>
        <translation>Anhang: %1</translation>
    </message>
    <message>
        <source>Remove %1 (Delete)</source>
        <translation>%1 entfernen (Entf)</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 entfernen</translation>
    </message>
</context>
<context>
    <name>qcode::ChatView</name>
    <message>
        <source>Jump to latest</source>
        <translation>Zum Neuesten</translation>
    </message>
    <message>
        <source>Scroll to the newest message (%1)</source>
        <translation>Zur neuesten Nachricht scrollen (%1)</translation>
    </message>
</context>
<context>
    <name>qcode::CompactionDivider</name>
    <message>
        <source>Earlier messages summarised here</source>
        <translation>Frühere Nachrichten hier zusammengefasst</translation>
    </message>
    <message>
        <source>The conversation grew too long for the model, so it was summarised; the model reads the summary below instead of the messages above it.</source>
        <translation>Das Gespräch wurde für das Modell zu lang und wurde deshalb zusammengefasst; das Modell liest die Zusammenfassung unten statt der Nachrichten darüber.</translation>
    </message>
    <message>
        <source>You asked for a summary; the model reads the summary below instead of the messages above it.</source>
        <translation>Sie haben eine Zusammenfassung angefordert; das Modell liest die Zusammenfassung unten statt der Nachrichten darüber.</translation>
    </message>
</context>
<context>
    <name>qcode::CompactionRun</name>
    <message>
        <source>Compaction is not set up.</source>
        <translation>Die Verdichtung ist nicht eingerichtet.</translation>
    </message>
    <message>
        <source>The compaction request %1 is not a user message of session %2.</source>
        <translation>Die Verdichtungsanfrage %1 ist keine Benutzernachricht der Sitzung %2.</translation>
    </message>
    <message>
        <source>Conversation history too large to compact - exceeds model context limit</source>
        <translation>Der Gesprächsverlauf ist zu groß zum Verdichten – er übersteigt das Kontextlimit des Modells</translation>
    </message>
    <message>
        <source>Session too large to compact - context exceeds model limit even after stripping media</source>
        <translation>Die Sitzung ist zu groß zum Verdichten – der Kontext übersteigt das Limit des Modells auch ohne Medien</translation>
    </message>
</context>
<context>
    <name>qcode::CompatibleProviderForm</name>
    <message>
        <source>OpenAI-compatible server</source>
        <translation>OpenAI-kompatibler Server</translation>
    </message>
    <message>
        <source>my-server</source>
        <translation>mein-server</translation>
    </message>
    <message>
        <source>My Server</source>
        <translation>Mein Server</translation>
    </message>
    <message>
        <source>http://127.0.0.1:8000/v1</source>
        <translation>http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <source>Model ids, separated by commas</source>
        <translation>Modell-IDs, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Test Connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>&amp;Id:</source>
        <translation>&amp;ID:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>&amp;Basis-URL:</translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation>API-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>&amp;Models:</source>
        <translation>&amp;Modelle:</translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s).</source>
        <translation>
            <numerusform>Verbunden: %n Modell.</numerusform>
            <numerusform>Verbunden: %n Modelle.</numerusform>
        </translation>
    </message>
    <message>
        <source>Their ids are filled in under Models.</source>
        <translation>Die Modell-IDs sind unter „Modelle“ eingetragen.</translation>
    </message>
    <message>
        <source>A key is saved in the system keychain; paste another to replace it</source>
        <translation>Ein Schlüssel ist im System-Schlüsselbund gespeichert; füge einen anderen ein, um ihn zu ersetzen</translation>
    </message>
    <message>
        <source>Optional; kept in the system keychain</source>
        <translation>Optional; wird im System-Schlüsselbund aufbewahrt</translation>
    </message>
    <message>
        <source>Asking %1 for its models…</source>
        <translation>Frage %1 nach seinen Modellen…</translation>
    </message>
    <message>
        <source>“%1” is one of qcode's built-in providers; give this server another id, such as %1-proxy.</source>
        <translation>„%1“ ist einer der eingebauten Anbieter von qcode; gib diesem Server eine andere ID, etwa %1-proxy.</translation>
    </message>
    <message>
        <source>Saved %1 to %2; its models are named %3/&lt;model&gt;.</source>
        <translation>%1 in %2 gespeichert; seine Modelle heißen %3/&lt;modell&gt;.</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>Kein System-Schlüsselbund verfügbar.</translation>
    </message>
    <message>
        <source>Saving its key in the system keychain…</source>
        <translation>Sein Schlüssel wird im System-Schlüsselbund gespeichert…</translation>
    </message>
    <message>
        <source>Its key is in the system keychain.</source>
        <translation>Sein Schlüssel liegt im System-Schlüsselbund.</translation>
    </message>
    <message>
        <source>Removed %1 from %2.</source>
        <translation>%1 aus %2 entfernt.</translation>
    </message>
</context>
<context>
    <name>qcode::ConfigErrorBanner</name>
    <message>
        <source>No prompt runs in this project until its configuration is fixed:</source>
        <translation>In diesem Projekt läuft kein Prompt, bis seine Konfiguration korrigiert ist:</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more.</source>
        <translation>
            <numerusform>… und %n weiterer.</numerusform>
            <numerusform>… und %n weitere.</numerusform>
        </translation>
    </message>
    <message>
        <source>Open file</source>
        <translation>Datei öffnen</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Read the configuration again</source>
        <translation>Die Konfiguration erneut lesen</translation>
    </message>
</context>
<context>
    <name>qcode::ConnectionTester</name>
    <message numerus="yes">
        <source>%1 did not answer within %n second(s).</source>
        <translation>
            <numerusform>%1 hat nicht innerhalb von %n Sekunde geantwortet.</numerusform>
            <numerusform>%1 hat nicht innerhalb von %n Sekunden geantwortet.</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not reach %1: %2</source>
        <translation>%1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>%1 answered, but not with a list of models. Is the base URL the API root (it usually ends in /v1)?</source>
        <translation>%1 hat geantwortet, aber nicht mit einer Liste von Modellen. Ist die Basis-URL die Wurzel der API (sie endet meist auf /v1)?</translation>
    </message>
    <message>
        <source>%1 answered with HTTP status %2.</source>
        <translation>%1 hat mit HTTP-Status %2 geantwortet.</translation>
    </message>
    <message>
        <source>%1 answered with HTTP status %2: %3</source>
        <translation>%1 hat mit HTTP-Status %2 geantwortet: %3</translation>
    </message>
    <message>
        <source>Check the API key.</source>
        <translation>Prüfe den API-Schlüssel.</translation>
    </message>
    <message>
        <source>Check the base URL; it usually ends in /v1.</source>
        <translation>Prüfe die Basis-URL; sie endet meist auf /v1.</translation>
    </message>
</context>
<context>
    <name>qcode::ContextMeter</name>
    <message>
        <source>Context: %1 of %2 tokens (%3%)
Session cost: $%4</source>
        <translation>Kontext: %1 von %2 Token (%3 %)
Sitzungskosten: %4 $</translation>
    </message>
    <message>
        <source>Context: %1 tokens
Session cost: $%2</source>
        <translation>Kontext: %1 Token
Sitzungskosten: %2 $</translation>
    </message>
    <message>
        <source>%1 / %2 · %3</source>
        <translation>%1 / %2 · %3</translation>
    </message>
    <message>
        <source>%1 tokens · %2</source>
        <translation>%1 Token · %2</translation>
    </message>
</context>
<context>
    <name>qcode::DataPage</name>
    <message>
        <source>Data folder</source>
        <translation>Datenordner</translation>
    </message>
    <message>
        <source>Measuring…</source>
        <translation>Wird gemessen…</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>Change…</source>
        <translation>Ändern…</translation>
    </message>
    <message>
        <source>Use the Default</source>
        <translation>Standard verwenden</translation>
    </message>
    <message>
        <source>Location:</source>
        <translation>Ort:</translation>
    </message>
    <message>
        <source>Database:</source>
        <translation>Datenbank:</translation>
    </message>
    <message>
        <source>Saved tool output:</source>
        <translation>Gespeicherte Tool-Ausgaben:</translation>
    </message>
    <message>
        <source>Snapshots:</source>
        <translation>Snapshots:</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation>%1 in %2</translation>
    </message>
    <message>
        <source>%1 does not exist and cannot be created.</source>
        <translation>%1 existiert nicht und kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>No file manager opened %1.</source>
        <translation>Kein Dateimanager hat %1 geöffnet.</translation>
    </message>
    <message>
        <source>Choose the Data Folder</source>
        <translation>Datenordner wählen</translation>
    </message>
    <message>
        <source>Choose a full path for the data folder, not %1.</source>
        <translation>Wähle einen vollständigen Pfad für den Datenordner, nicht %1.</translation>
    </message>
    <message>
        <source>%1 is a file, not a folder.</source>
        <translation>%1 ist eine Datei, kein Ordner.</translation>
    </message>
    <message>
        <source>QCODE_DATA_DIR is set, so qcode uses that folder whatever is chosen here.</source>
        <translation>QCODE_DATA_DIR ist gesetzt, daher verwendet qcode diesen Ordner, egal was hier gewählt ist.</translation>
    </message>
    <message>
        <source>From its next start qcode keeps its data in %1. What is in %2 stays there; move it yourself to keep your sessions.</source>
        <translation>Ab dem nächsten Start speichert qcode seine Daten in %1. Was in %2 liegt, bleibt dort; verschiebe es selbst, um deine Sitzungen zu behalten.</translation>
    </message>
    <message>
        <source>From its next start qcode keeps its data in the default folder, %1.</source>
        <translation>Ab dem nächsten Start speichert qcode seine Daten im Standardordner %1.</translation>
    </message>
</context>
<context>
    <name>qcode::DiffView</name>
    <message>
        <source>Show the whole diff</source>
        <translation>Den ganzen Diff anzeigen</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>Show the old and the new text side by side</source>
        <translation>Alten und neuen Text nebeneinander anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>+%1 −%2 in %n file(s)</source>
        <translation>
            <numerusform>+%1 −%2 in %n Datei</numerusform>
            <numerusform>+%1 −%2 in %n Dateien</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>This diff has %n line(s); it is not shown until you ask for it.</source>
        <translation>
            <numerusform>Dieser Diff hat %n Zeile; er wird erst angezeigt, wenn du danach fragst.</numerusform>
            <numerusform>Dieser Diff hat %n Zeilen; er wird erst angezeigt, wenn du danach fragst.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::Engine</name>
    <message>
        <source>The database is not open.</source>
        <translation>Die Datenbank ist nicht geöffnet.</translation>
    </message>
    <message>
        <source>Session %1 does not exist.</source>
        <translation>Die Sitzung %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>Agent nicht gefunden: „%1“.</translation>
    </message>
    <message>
        <source>Session %1 is being reverted; send the prompt again when it is done.</source>
        <translation>Die Sitzung %1 wird gerade zurückgesetzt; sende den Prompt erneut, wenn das erledigt ist.</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>Der Ordner %1 existiert nicht.</translation>
    </message>
    <message>
        <source>Session %1 is busy: wait for it to finish or stop it, then retry.</source>
        <translation>Die Sitzung %1 ist beschäftigt: Warte, bis sie fertig ist, oder stoppe sie und versuche es dann erneut.</translation>
    </message>
    <message>
        <source>Session %1 has no prompt to retry.</source>
        <translation>Die Sitzung %1 hat keinen Prompt, der wiederholt werden könnte.</translation>
    </message>
    <message>
        <source>Session %1 has nothing to retry: its last prompt was answered.</source>
        <translation>Die Sitzung %1 hat nichts zu wiederholen: Der letzte Prompt wurde bereits beantwortet.</translation>
    </message>
    <message>
        <source>Session %1 is busy: wait for it to finish or stop it, then run the command again.</source>
        <translation>Die Sitzung %1 ist beschäftigt: Warte, bis sie fertig ist, oder stoppe sie und führe den Befehl dann erneut aus.</translation>
    </message>
    <message>
        <source>Session %1 cannot be forked: it does not exist.</source>
        <translation>Die Sitzung %1 kann nicht abgezweigt werden, weil es sie nicht gibt.</translation>
    </message>
    <message>
        <source>%1 (fork)</source>
        <translation>%1 (Abzweigung)</translation>
    </message>
    <message>
        <source>A session's title cannot be empty.</source>
        <translation>Der Titel einer Sitzung darf nicht leer sein.</translation>
    </message>
    <message>
        <source>Session %1 is busy: stop it or wait for it to finish, then undo again.</source>
        <translation>Die Sitzung %1 ist beschäftigt: Stoppe sie oder warte, bis sie fertig ist, und mache dann erneut rückgängig.</translation>
    </message>
    <message>
        <source>There is nothing to compact in session %1.</source>
        <translation>In der Sitzung %1 gibt es nichts zu verdichten.</translation>
    </message>
    <message>
        <source>Session %1 is being reverted; compact it when that is done.</source>
        <translation>Sitzung %1 wird gerade zurückgesetzt; fassen Sie sie zusammen, wenn das erledigt ist.</translation>
    </message>
</context>
<context>
    <name>qcode::FileChipWidget</name>
    <message>
        <source>Attachment</source>
        <translation>Anhang</translation>
    </message>
    <message>
        <source>%1 (%2)
Click to open</source>
        <translation>%1 (%2)
Zum Öffnen klicken</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>qcode::GeneralPage</name>
    <message>
        <source>Models and agent</source>
        <translation>Modelle und Agent</translation>
    </message>
    <message>
        <source>Automatic (the best model of a provider with a key)</source>
        <translation>Automatisch (das beste Modell eines Anbieters mit Schlüssel)</translation>
    </message>
    <message>
        <source>Automatic (a small model of the same provider)</source>
        <translation>Automatisch (ein kleines Modell desselben Anbieters)</translation>
    </message>
    <message>
        <source>Used for titles and summaries, where a fast, cheap model is enough.</source>
        <translation>Für Titel und Zusammenfassungen, wo ein schnelles, günstiges Modell genügt.</translation>
    </message>
    <message>
        <source>Automatic (%1)</source>
        <translation>Automatisch (%1)</translation>
    </message>
    <message>
        <source>Default &amp;model:</source>
        <translation>Standard&amp;modell:</translation>
    </message>
    <message>
        <source>&amp;Small model:</source>
        <translation>&amp;Kleines Modell:</translation>
    </message>
    <message>
        <source>Default &amp;agent:</source>
        <translation>Standard-&amp;Agent:</translation>
    </message>
    <message>
        <source>Appearance and language</source>
        <translation>Aussehen und Sprache</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Dem System folgen</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>Systemstandard</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>Notify me when a session finishes or needs an answer while qcode is in the background</source>
        <translation>Mich benachrichtigen, wenn eine Sitzung fertig ist oder eine Antwort braucht, während qcode im Hintergrund läuft</translation>
    </message>
    <message>
        <source>&amp;Theme:</source>
        <translation>&amp;Design:</translation>
    </message>
    <message>
        <source>&amp;Font size:</source>
        <translation>&amp;Schriftgröße:</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>S&amp;prache:</translation>
    </message>
    <message>
        <source>This qcode has no %1 translation yet, so it stays in English; the choice is kept for a version that has one.</source>
        <translation>Dieses qcode hat noch keine Übersetzung für %1 und bleibt daher auf Englisch; die Wahl bleibt für eine Version erhalten, die eine hat.</translation>
    </message>
    <message>
        <source>Another config file sets the model to %1. A choice here wins over your global opencode.json, not over a project's own config.</source>
        <translation>Eine andere Konfigurationsdatei setzt das Modell auf %1. Eine Wahl hier hat Vorrang vor deiner globalen opencode.json, nicht aber vor der eigenen Konfiguration eines Projekts.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved: qcode picks the model.</source>
        <translation>Gespeichert: qcode wählt das Modell.</translation>
    </message>
    <message>
        <source>Saved: %1 is the default.</source>
        <translation>Gespeichert: %1 ist der Standard.</translation>
    </message>
    <message>
        <source>Saved: the first agent is the default.</source>
        <translation>Gespeichert: Der erste Agent ist der Standard.</translation>
    </message>
    <message>
        <source>Saved: %1 is the default agent.</source>
        <translation>Gespeichert: %1 ist der Standard-Agent.</translation>
    </message>
</context>
<context>
    <name>qcode::KeychainNotice</name>
    <message>
        <source>Keys are read from environment variables and the config because no system keychain is running.</source>
        <translation>Schlüssel werden aus Umgebungsvariablen und der Konfiguration gelesen, weil kein Systemschlüsselbund läuft.</translation>
    </message>
    <message>
        <source>Close this notice</source>
        <translation>Diesen Hinweis schließen</translation>
    </message>
</context>
<context>
    <name>qcode::LocalServersBox</name>
    <message>
        <source>Servers on this computer</source>
        <translation>Server auf diesem Computer</translation>
    </message>
    <message>
        <source>Double-click a server to edit it as a custom provider.</source>
        <translation>Doppelklicke auf einen Server, um ihn als eigenen Anbieter zu bearbeiten.</translation>
    </message>
    <message>
        <source>Search Again</source>
        <translation>Erneut suchen</translation>
    </message>
    <message>
        <source>Looking for model servers…</source>
        <translation>Suche nach Modellservern…</translation>
    </message>
    <message>
        <source>Looking for %1…</source>
        <translation>Suche nach %1…</translation>
    </message>
    <message numerus="yes">
        <source>%1 at %2 — %n model(s)</source>
        <translation>
            <numerusform>%1 unter %2 — %n Modell</numerusform>
            <numerusform>%1 unter %2 — %n Modelle</numerusform>
        </translation>
    </message>
    <message>
        <source>No model server answered on this computer. Start Ollama, LM Studio or llama.cpp and search again, or add any OpenAI-compatible server below.</source>
        <translation>Auf diesem Computer hat kein Modellserver geantwortet. Starte Ollama, LM Studio oder llama.cpp und suche erneut, oder füge unten einen beliebigen OpenAI-kompatiblen Server hinzu.</translation>
    </message>
    <message>
        <source>qcode offers their models without a key.</source>
        <translation>qcode bietet die Modelle dieser Server ohne Schlüssel an.</translation>
    </message>
</context>
<context>
    <name>qcode::MainWindow</name>
    <message>
        <source>qcode</source>
        <translation>qcode</translation>
    </message>
    <message>
        <source>The conversation was summarized to fit the model's context.</source>
        <translation>Das Gespräch wurde zusammengefasst, damit es in den Kontext des Modells passt.</translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation>Projektordner öffnen</translation>
    </message>
    <message>
        <source>qcode works inside one folder at a time: the agent reads and changes the files there, with your permission.</source>
        <translation>qcode arbeitet jeweils in einem Ordner: Der Agent liest und ändert die Dateien dort, mit deiner Erlaubnis.</translation>
    </message>
    <message>
        <source>Open Folder…</source>
        <translation>Ordner öffnen…</translation>
    </message>
    <message>
        <source>Open a project folder (%1)</source>
        <translation>Einen Projektordner öffnen (%1)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Open Project Folder…</source>
        <translation>Projektordner ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation>&amp;Neue Sitzung</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>Eine neue Sitzung beginnen</translation>
    </message>
    <message>
        <source>&amp;Export Session…</source>
        <translation>Sitzung e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save the open session as Markdown or as OpenCode's JSON</source>
        <translation>Die geöffnete Sitzung als Markdown oder als JSON von OpenCode speichern</translation>
    </message>
    <message>
        <source>&amp;Import Session…</source>
        <translation>Sitzung &amp;importieren…</translation>
    </message>
    <message>
        <source>Add a session from an OpenCode or qcode JSON export</source>
        <translation>Eine Sitzung aus einem JSON-Export von OpenCode oder qcode hinzufügen</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>Providers and keys, default model, theme, permissions</source>
        <translation>Anbieter und Schlüssel, Standardmodell, Design, Berechtigungen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit qcode</source>
        <translation>qcode beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>Copy Session as &amp;Markdown</source>
        <translation>Sitzung als &amp;Markdown kopieren</translation>
    </message>
    <message>
        <source>Copy the whole conversation as Markdown</source>
        <translation>Das ganze Gespräch als Markdown kopieren</translation>
    </message>
    <message>
        <source>&amp;Find Session</source>
        <translation>Sitzung &amp;suchen</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>&amp;Sitzung</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stoppen</translation>
    </message>
    <message>
        <source>Stop the running turn</source>
        <translation>Die laufende Runde stoppen</translation>
    </message>
    <message>
        <source>&amp;Compact</source>
        <translation>&amp;Verdichten</translation>
    </message>
    <message>
        <source>Summarize the conversation so far to free the model's context</source>
        <translation>Das bisherige Gespräch zusammenfassen, um den Kontext des Modells freizumachen</translation>
    </message>
    <message>
        <source>&amp;Undo Last Prompt</source>
        <translation>Letzten Prompt &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>Take back the last prompt and the file changes it made</source>
        <translation>Den letzten Prompt und seine Dateiänderungen zurücknehmen</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Bring back what the last undo took back</source>
        <translation>Zurückholen, was das letzte Rückgängigmachen zurückgenommen hat</translation>
    </message>
    <message>
        <source>Re&amp;name</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>Rename the open session</source>
        <translation>Die geöffnete Sitzung umbenennen</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>&amp;Abzweigen</translation>
    </message>
    <message>
        <source>A copy of the open session, to try another way</source>
        <translation>Eine Kopie der geöffneten Sitzung, um einen anderen Weg zu versuchen</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>Delete the open session</source>
        <translation>Die geöffnete Sitzung löschen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>Jump to &amp;Latest</source>
        <translation>Zum &amp;Neuesten springen</translation>
    </message>
    <message>
        <source>Scroll to the newest message</source>
        <translation>Zur neuesten Nachricht scrollen</translation>
    </message>
    <message>
        <source>Show &amp;Sessions</source>
        <translation>&amp;Sitzungen anzeigen</translation>
    </message>
    <message>
        <source>Show or hide the list of sessions</source>
        <translation>Die Liste der Sitzungen ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Open Project Folder</source>
        <translation>Projektordner öffnen</translation>
    </message>
    <message>
        <source>%1 is not a folder.</source>
        <translation>%1 ist kein Ordner.</translation>
    </message>
    <message>
        <source>%1 — qcode</source>
        <translation>%1 — qcode</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Waiting to retry</source>
        <translation>Wartet auf neuen Versuch</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Arbeitet…</translation>
    </message>
    <message>
        <source>Copying the session…</source>
        <translation>Sitzung wird kopiert…</translation>
    </message>
    <message>
        <source>The session could not be copied: %1</source>
        <translation>Die Sitzung konnte nicht kopiert werden: %1</translation>
    </message>
    <message>
        <source>The session is on the clipboard as Markdown.</source>
        <translation>Die Sitzung liegt als Markdown in der Zwischenablage.</translation>
    </message>
    <message>
        <source>Export Session</source>
        <translation>Sitzung exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>OpenCode export (*.json)</source>
        <translation>OpenCode-Export (*.json)</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>Nach %1 exportiert.</translation>
    </message>
    <message>
        <source>The session was not exported: %1</source>
        <translation>Die Sitzung wurde nicht exportiert: %1</translation>
    </message>
    <message>
        <source>Import Session</source>
        <translation>Sitzung importieren</translation>
    </message>
    <message>
        <source>Session exports (*.json)</source>
        <translation>Sitzungsexporte (*.json)</translation>
    </message>
    <message>
        <source>The session was not imported: %1</source>
        <translation>Die Sitzung wurde nicht importiert: %1</translation>
    </message>
    <message>
        <source>Session imported.</source>
        <translation>Sitzung importiert.</translation>
    </message>
    <message>
        <source>Session imported; it belongs to another project folder, where it is listed.</source>
        <translation>Sitzung importiert; sie gehört zu einem anderen Projektordner und wird dort aufgeführt.</translation>
    </message>
    <message>
        <source>Search the sessions by title and by what was said in them</source>
        <translation>Sitzungen nach Titel und Inhalt durchsuchen</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Every key the window knows</source>
        <translation>Alle Tasten, die das Fenster kennt</translation>
    </message>
    <message>
        <source>qcode &amp;Guide</source>
        <translation>qcode-&amp;Anleitung</translation>
    </message>
    <message>
        <source>Open qcode's README in the browser</source>
        <translation>Die README von qcode im Browser öffnen</translation>
    </message>
    <message>
        <source>&amp;About qcode</source>
        <translation>Über &amp;qcode</translation>
    </message>
    <message>
        <source>Version and licence</source>
        <translation>Version und Lizenz</translation>
    </message>
    <message>
        <source>About qcode</source>
        <translation>Über qcode</translation>
    </message>
    <message>
        <source>&lt;h3&gt;qcode %1&lt;/h3&gt;&lt;p&gt;A desktop coding agent: it reads and changes the files of one project folder, with your permission.&lt;/p&gt;&lt;p&gt;&lt;a href="%2"&gt;%2&lt;/a&gt;&lt;/p&gt;</source>
        <translation>&lt;h3&gt;qcode %1&lt;/h3&gt;&lt;p&gt;Ein Programmier-Agent für den Desktop: Er liest und ändert die Dateien eines Projektordners, mit Ihrer Erlaubnis.&lt;/p&gt;&lt;p&gt;&lt;a href="%2"&gt;%2&lt;/a&gt;&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>qcode::MessageWidget</name>
    <message>
        <source>Retry</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>Run this step again</source>
        <translation>Diesen Schritt erneut ausführen</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Abgebrochen.</translation>
    </message>
    <message>
        <source>%1 · %2 (%3)</source>
        <translation>%1 · %2 (%3)</translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out</source>
        <translation>Token: %1 Eingabe, %2 Ausgabe</translation>
    </message>
    <message>
        <source>Reasoning: %1</source>
        <translation>Überlegungen: %1</translation>
    </message>
    <message>
        <source>Cache: %1 read, %2 written</source>
        <translation>Cache: %1 gelesen, %2 geschrieben</translation>
    </message>
    <message>
        <source>Cost: $%1</source>
        <translation>Kosten: %1 $</translation>
    </message>
    <message>
        <source>Took %1 s</source>
        <translation>Dauer: %1 s</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>Copy &amp;Message</source>
        <translation>&amp;Nachricht kopieren</translation>
    </message>
    <message>
        <source>&amp;Fork From Here</source>
        <translation>Ab hier &amp;abzweigen</translation>
    </message>
    <message>
        <source>A new session with the conversation up to this message</source>
        <translation>Eine neue Sitzung mit dem Gespräch bis zu dieser Nachricht</translation>
    </message>
    <message>
        <source>&amp;Undo From Here</source>
        <translation>Ab hier &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>Put the files back as they were before this message and hide what followed</source>
        <translation>Die Dateien auf den Stand vor dieser Nachricht zurücksetzen und alles Folgende ausblenden</translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation>Einstellungen öffnen</translation>
    </message>
    <message>
        <source>Check or replace the provider's key</source>
        <translation>Den Schlüssel des Anbieters prüfen oder ersetzen</translation>
    </message>
    <message>
        <source>Summary of the earlier conversation</source>
        <translation>Zusammenfassung des früheren Gesprächs</translation>
    </message>
    <message>
        <source>What the model was told of the messages above the divider; click to show or hide it</source>
        <translation>Was dem Modell über die Nachrichten oberhalb der Trennlinie gesagt wurde; klicken zum Ein- oder Ausblenden</translation>
    </message>
</context>
<context>
    <name>qcode::ModelComboBox</name>
    <message>
        <source>provider/model</source>
        <translation>anbieter/modell</translation>
    </message>
</context>
<context>
    <name>qcode::ModelPicker</name>
    <message>
        <source>Choose a model</source>
        <translation>Modell wählen</translation>
    </message>
    <message>
        <source>Model: %1 (%2/%3). Change it: %4</source>
        <translation>Modell: %1 (%2/%3). Ändern: %4</translation>
    </message>
    <message>
        <source>Choose the model for the next prompt (%1)</source>
        <translation>Das Modell für den nächsten Prompt wählen (%1)</translation>
    </message>
</context>
<context>
    <name>qcode::ModelPopup</name>
    <message>
        <source>Search models</source>
        <translation>Modelle suchen</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Andere</translation>
    </message>
</context>
<context>
    <name>qcode::NetworkBox</name>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>From the environment or the system</source>
        <translation>Aus der Umgebung oder vom System</translation>
    </message>
    <message>
        <source>None (SSL_CERT_FILE and NODE_EXTRA_CA_CERTS still apply)</source>
        <translation>Keine (SSL_CERT_FILE und NODE_EXTRA_CA_CERTS gelten weiterhin)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Durchsuchen…</translation>
    </message>
    <message>
        <source>&amp;Proxy:</source>
        <translation>&amp;Proxy:</translation>
    </message>
    <message>
        <source>Extra &amp;certificates:</source>
        <translation>Zusätzliche &amp;Zertifikate:</translation>
    </message>
    <message>
        <source>A proxy here (http://user:password@proxy.example.com:3128) is used for every request; with none, https_proxy, http_proxy, all_proxy and no_proxy apply, then the system's settings. Extra certificates are a PEM file of authorities added to the system's, for networks that inspect TLS. A proxy applies from the next start.</source>
        <translation>Ein Proxy hier (http://benutzer:passwort@proxy.example.com:3128) wird für jede Anfrage verwendet; ohne ihn gelten https_proxy, http_proxy, all_proxy und no_proxy, danach die Einstellungen des Systems. Zusätzliche Zertifikate sind eine PEM-Datei mit Zertifizierungsstellen, die zu denen des Systems hinzukommen – für Netzwerke, die TLS prüfen. Ein Proxy gilt ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>"%1" is not a proxy address like http://proxy.example.com:3128.</source>
        <translation>„%1“ ist keine Proxy-Adresse wie http://proxy.example.com:3128.</translation>
    </message>
    <message>
        <source>The proxy applies from the next start.</source>
        <translation>Der Proxy gilt ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>These certificates cannot be used: %1</source>
        <translation>Diese Zertifikate können nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>The certificates are trusted now and at every start.</source>
        <translation>Den Zertifikaten wird ab jetzt und bei jedem Start vertraut.</translation>
    </message>
    <message>
        <source>Extra certificate authorities</source>
        <translation>Zusätzliche Zertifizierungsstellen</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>PEM-Zertifikate (*.pem *.crt *.cer);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>qcode::NetworkSetup</name>
    <message>
        <source>The proxy "%1" set in Settings is not an address like http://proxy.example.com:3128; no proxy is used.</source>
        <translation>Der in den Einstellungen gesetzte Proxy „%1“ ist keine Adresse wie http://proxy.example.com:3128; es wird kein Proxy verwendet.</translation>
    </message>
    <message>
        <source>The certificates named by %1 were not added: %2</source>
        <translation>Die von %1 genannten Zertifikate wurden nicht hinzugefügt: %2</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 ist keine Datei</translation>
    </message>
    <message>
        <source>%1 holds no PEM certificate</source>
        <translation>%1 enthält kein PEM-Zertifikat</translation>
    </message>
    <message>
        <source>this build of Qt has no TLS support</source>
        <translation>dieser Qt-Build unterstützt kein TLS</translation>
    </message>
</context>
<context>
    <name>qcode::NoProviderBanner</name>
    <message>
        <source>No model can answer yet, so nothing was sent. Connect a provider (or start a local model server), then send again: your prompt is still here.</source>
        <translation>Noch kann kein Modell antworten, daher wurde nichts gesendet. Verbinden Sie einen Anbieter (oder starten Sie einen lokalen Modellserver) und senden Sie erneut: Ihr Prompt ist noch da.</translation>
    </message>
    <message>
        <source>No provider is connected yet. Add an API key or use a model server running on this computer, and qcode can start answering.</source>
        <translation>Noch ist kein Anbieter verbunden. Fügen Sie einen API-Schlüssel hinzu oder verwenden Sie einen Modellserver auf diesem Computer, dann kann qcode antworten.</translation>
    </message>
    <message>
        <source>Connect a provider…</source>
        <translation>Anbieter verbinden…</translation>
    </message>
    <message>
        <source>Open Settings at the Providers page</source>
        <translation>Die Einstellungen auf der Seite „Anbieter“ öffnen</translation>
    </message>
</context>
<context>
    <name>qcode::NoteWidget</name>
    <message numerus="yes">
        <source>Changed %n file(s): %1</source>
        <translation>
            <numerusform>%n Datei geändert: %1</numerusform>
            <numerusform>%n Dateien geändert: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> und %n weitere</numerusform>
            <numerusform> und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>The conversation was summarized to fit the model's context.</source>
        <translation>Das Gespräch wurde zusammengefasst, damit es in den Kontext des Modells passt.</translation>
    </message>
    <message>
        <source>Summarize the conversation so far.</source>
        <translation>Das bisherige Gespräch zusammenfassen.</translation>
    </message>
    <message>
        <source>Attempt %1 failed; retried.</source>
        <translation>Versuch %1 fehlgeschlagen; erneut versucht.</translation>
    </message>
    <message>
        <source>Attempt %1 failed (%2); retried.</source>
        <translation>Versuch %1 fehlgeschlagen (%2); erneut versucht.</translation>
    </message>
    <message>
        <source>Subtask for @%1: %2</source>
        <translation>Teilaufgabe für @%1: %2</translation>
    </message>
    <message>
        <source>Mentioned agent @%1</source>
        <translation>Agent @%1 erwähnt</translation>
    </message>
    <message>
        <source>A “%1” part, from a newer version, is not shown.</source>
        <translation>Ein „%1“-Teil aus einer neueren Version wird nicht angezeigt.</translation>
    </message>
</context>
<context>
    <name>qcode::NoticeLabel</name>
    <message>
        <source>Click to dismiss</source>
        <translation>Zum Schließen klicken</translation>
    </message>
</context>
<context>
    <name>qcode::Notifier</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>A session</source>
        <translation>Eine Sitzung</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>„%1“</translation>
    </message>
    <message>
        <source>Permission needed</source>
        <translation>Berechtigung nötig</translation>
    </message>
    <message>
        <source>%1 wants to: %2</source>
        <translation>%1 möchte: %2</translation>
    </message>
    <message>
        <source>A question for you</source>
        <translation>Eine Frage an dich</translation>
    </message>
    <message>
        <source>%1 asks: %2</source>
        <translation>%1 fragt: %2</translation>
    </message>
    <message>
        <source>Task finished</source>
        <translation>Aufgabe erledigt</translation>
    </message>
    <message>
        <source>%1 finished after %2.</source>
        <translation>%1 ist nach %2 fertig.</translation>
    </message>
    <message>
        <source>Task failed</source>
        <translation>Aufgabe fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 stopped: %2</source>
        <translation>%1 wurde beendet: %2</translation>
    </message>
</context>
<context>
    <name>qcode::OpenAIResponsesStreamDecoder</name>
    <message>
        <source>The provider reported that the response failed without saying why.</source>
        <translation>Der Anbieter hat gemeldet, dass die Antwort fehlgeschlagen ist, ohne zu sagen, warum.</translation>
    </message>
</context>
<context>
    <name>qcode::OutputView</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the whole output</source>
        <translation>Die ganze Ausgabe kopieren</translation>
    </message>
    <message numerus="yes">
        <source>… %n earlier line(s) not shown</source>
        <translation>
            <numerusform>… %n frühere Zeile nicht angezeigt</numerusform>
            <numerusform>… %n frühere Zeilen nicht angezeigt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… %n more line(s) not shown</source>
        <translation>
            <numerusform>… %n weitere Zeile nicht angezeigt</numerusform>
            <numerusform>… %n weitere Zeilen nicht angezeigt</numerusform>
        </translation>
    </message>
    <message>
        <source>Show less</source>
        <translation>Weniger anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>+%n earlier line(s)</source>
        <translation>
            <numerusform>+%n frühere Zeile</numerusform>
            <numerusform>+%n frühere Zeilen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n Zeile</numerusform>
            <numerusform>+%n Zeilen</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::PartWriter</name>
    <message>
        <source>Part %1 is a %2 part, which does not stream.</source>
        <translation>Teil %1 ist ein Teil vom Typ %2, der nicht gestreamt wird.</translation>
    </message>
    <message>
        <source>Part %1 is not streaming.</source>
        <translation>Teil %1 wird nicht gestreamt.</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionCenter</name>
    <message>
        <source>Permission "%1" for %2 was refused: nobody can be asked here (run with --auto-approve to allow it).</source>
        <translation>Die Berechtigung „%1“ für %2 wurde verweigert: Hier kann niemand gefragt werden (starte mit --auto-approve, um sie zu erlauben).</translation>
    </message>
    <message>
        <source>The approval for this project could not be saved and lasts only until qcode quits: %1</source>
        <translation>Die Freigabe für dieses Projekt konnte nicht gespeichert werden und gilt nur, bis qcode beendet wird: %1</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionDialog</name>
    <message>
        <source>In a session without a title</source>
        <translation>In einer Sitzung ohne Titel</translation>
    </message>
    <message>
        <source>In session “%1”</source>
        <translation>In der Sitzung „%1“</translation>
    </message>
    <message>
        <source>Permission needed</source>
        <translation>Berechtigung nötig</translation>
    </message>
    <message>
        <source>&amp;Tell the agent what to do instead:</source>
        <translation>Sag dem Agenten, was er &amp;stattdessen tun soll:</translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation>Sen&amp;den</translation>
    </message>
    <message>
        <source>Allow &amp;once</source>
        <translation>&amp;Einmal erlauben</translation>
    </message>
    <message>
        <source>&amp;Reject</source>
        <translation>&amp;Ablehnen</translation>
    </message>
    <message>
        <source>The agent stops and waits for your next message.</source>
        <translation>Der Agent hält an und wartet auf deine nächste Nachricht.</translation>
    </message>
    <message>
        <source>Until this session ends, without asking:
%1</source>
        <translation>Bis diese Sitzung endet, ohne zu fragen:
%1</translation>
    </message>
    <message>
        <source>In every session of this project, without asking; saved, and listed in Settings to take back:
%1</source>
        <translation>In jeder Sitzung dieses Projekts, ohne zu fragen; gespeichert und in den Einstellungen aufgeführt, wo du es zurücknehmen kannst:
%1</translation>
    </message>
    <message>
        <source>“Always”: %1</source>
        <translation>„Immer“: %1</translation>
    </message>
</context>
<context>
    <name>qcode::PermissionsPage</name>
    <message>
        <source>allow</source>
        <translation>erlauben</translation>
    </message>
    <message>
        <source>Read files</source>
        <translation>Dateien lesen</translation>
    </message>
    <message>
        <source>allow; ask for .env files</source>
        <translation>erlauben; bei .env-Dateien fragen</translation>
    </message>
    <message>
        <source>Change files (edit, write, patch)</source>
        <translation>Dateien ändern (edit, write, patch)</translation>
    </message>
    <message>
        <source>Find files by name</source>
        <translation>Dateien nach Namen finden</translation>
    </message>
    <message>
        <source>Search in files</source>
        <translation>In Dateien suchen</translation>
    </message>
    <message>
        <source>List folders</source>
        <translation>Ordner auflisten</translation>
    </message>
    <message>
        <source>Run shell commands</source>
        <translation>Shell-Befehle ausführen</translation>
    </message>
    <message>
        <source>Start subagents</source>
        <translation>Subagenten starten</translation>
    </message>
    <message>
        <source>Fetch web pages</source>
        <translation>Webseiten abrufen</translation>
    </message>
    <message>
        <source>Update the to-do list</source>
        <translation>Die To-do-Liste aktualisieren</translation>
    </message>
    <message>
        <source>Read the to-do list</source>
        <translation>Die To-do-Liste lesen</translation>
    </message>
    <message>
        <source>Ask you questions</source>
        <translation>Dir Fragen stellen</translation>
    </message>
    <message>
        <source>allow for build and plan</source>
        <translation>erlauben für build und plan</translation>
    </message>
    <message>
        <source>Touch files outside the project</source>
        <translation>Dateien außerhalb des Projekts anfassen</translation>
    </message>
    <message>
        <source>ask</source>
        <translation>fragen</translation>
    </message>
    <message>
        <source>Repeat the same tool call over and over</source>
        <translation>Denselben Tool-Aufruf immer wieder wiederholen</translation>
    </message>
    <message>
        <source>Removed. qcode asks again the next time.</source>
        <translation>Entfernt. qcode fragt beim nächsten Mal wieder.</translation>
    </message>
    <message>
        <source>The answers were not removed: %1</source>
        <translation>Die Antworten wurden nicht entfernt: %1</translation>
    </message>
    <message>
        <source>What the agent may do without asking</source>
        <translation>Was der Agent ohne Nachfrage tun darf</translation>
    </message>
    <message>
        <source>Default (%1)</source>
        <translation>Standard (%1)</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Verweigern</translation>
    </message>
    <message>
        <source>Permission "%1"</source>
        <translation>Berechtigung „%1“</translation>
    </message>
    <message numerus="yes">
        <source>Custom rules (%n pattern(s))</source>
        <translation>
            <numerusform>Eigene Regeln (%n Muster)</numerusform>
            <numerusform>Eigene Regeln (%n Muster)</numerusform>
        </translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Saved: %1 is back to the default.</source>
        <translation>Gespeichert: %1 steht wieder auf dem Standard.</translation>
    </message>
    <message>
        <source>Saved: %1 is set to %2.</source>
        <translation>Gespeichert: %1 steht auf %2.</translation>
    </message>
    <message>
        <source>Answered "Always" in this project</source>
        <translation>In diesem Projekt immer erlaubt</translation>
    </message>
    <message>
        <source>Permission</source>
        <translation>Berechtigung</translation>
    </message>
    <message>
        <source>Pattern</source>
        <translation>Muster</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Open a project to see the answers saved for it.</source>
        <translation>Öffne ein Projekt, um die dafür gespeicherten Antworten zu sehen.</translation>
    </message>
    <message>
        <source>No saved answers: qcode asks whenever the rules say so.</source>
        <translation>Keine gespeicherten Antworten: qcode fragt immer, wenn die Regeln es verlangen.</translation>
    </message>
    <message>
        <source>qcode's engine is not running, so saved answers cannot be changed now.</source>
        <translation>Die Engine von qcode läuft nicht, daher können gespeicherte Antworten jetzt nicht geändert werden.</translation>
    </message>
    <message>
        <source>Removing…</source>
        <translation>Wird entfernt…</translation>
    </message>
    <message>
        <source>Rules from the configuration</source>
        <translation>Regeln aus der Konfiguration</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>The configuration sets no rules: the defaults above apply.</source>
        <translation>Die Konfiguration legt keine Regeln fest: Es gelten die Vorgaben oben.</translation>
    </message>
    <message>
        <source>Later rules win. Change them in the configuration file.</source>
        <translation>Spätere Regeln gewinnen. Ändern Sie sie in der Konfigurationsdatei.</translation>
    </message>
</context>
<context>
    <name>qcode::PromptBox</name>
    <message>
        <source>The project's files could not be listed for @ mentions: %1</source>
        <translation>Die Dateien des Projekts konnten für @-Erwähnungen nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Ask anything. @ mentions a file or an agent, / runs a command, ! a shell command.</source>
        <translation>Frag, was du willst. @ erwähnt eine Datei oder einen Agenten, / führt einen Befehl aus, ! einen Shell-Befehl.</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Stop the agent (%1)</source>
        <translation>Den Agenten stoppen (%1)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Send (%1 or %2); %3 starts a new line</source>
        <translation>Senden (%1 oder %2); %3 beginnt eine neue Zeile</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>Eine neue Sitzung beginnen</translation>
    </message>
    <message>
        <source>Summarize the session to free the model's context</source>
        <translation>Die Sitzung zusammenfassen, um den Kontext des Modells freizumachen</translation>
    </message>
    <message>
        <source>Undo the last message and the file changes it made</source>
        <translation>Die letzte Nachricht und ihre Dateiänderungen rückgängig machen</translation>
    </message>
    <message>
        <source>Bring back what undo took away</source>
        <translation>Zurückholen, was Rückgängig entfernt hat</translation>
    </message>
    <message>
        <source>Export the session as Markdown</source>
        <translation>Die Sitzung als Markdown exportieren</translation>
    </message>
    <message>
        <source>Choose the model</source>
        <translation>Das Modell wählen</translation>
    </message>
    <message>
        <source>Choose the agent</source>
        <translation>Den Agenten wählen</translation>
    </message>
    <message>
        <source>Type a shell command after the "!".</source>
        <translation>Gib nach dem „!“ einen Shell-Befehl ein.</translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation>Anhängen…</translation>
    </message>
    <message>
        <source>Attach files or images (or drop them here, or paste them)</source>
        <translation>Dateien oder Bilder anhängen (oder hierher ziehen oder einfügen)</translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation>Dateien anhängen</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line; Up and Down recall earlier prompts; Ctrl+. switches the agent; Tab moves on</source>
        <translation>Eingabe sendet, Umschalt+Eingabe beginnt eine neue Zeile; Auf und Ab holen frühere Prompts zurück; Strg+. wechselt den Agenten; Tab geht weiter</translation>
    </message>
</context>
<context>
    <name>qcode::PromptLoop</name>
    <message numerus="yes">
        <source>The conversation still does not fit the model's context after %n compaction(s): the system prompt, instructions and tools alone may be too large for this model. Choose a model with a larger context, or remove instruction files or tools.</source>
        <translation>
            <numerusform>Das Gespräch passt auch nach %n Verdichtung nicht in den Kontext des Modells: Schon der Systemprompt, die Anweisungen und die Tools allein sind für dieses Modell vielleicht zu groß. Wähle ein Modell mit größerem Kontext oder entferne Anweisungsdateien oder Tools.</numerusform>
            <numerusform>Das Gespräch passt auch nach %n Verdichtungen nicht in den Kontext des Modells: Schon der Systemprompt, die Anweisungen und die Tools allein sind für dieses Modell vielleicht zu groß. Wähle ein Modell mit größerem Kontext oder entferne Anweisungsdateien oder Tools.</numerusform>
        </translation>
    </message>
    <message>
        <source>Agent not found: "%1".</source>
        <translation>Agent nicht gefunden: „%1“.</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderCall</name>
    <message>
        <source>no network access is available</source>
        <translation>kein Netzwerkzugang verfügbar</translation>
    </message>
    <message>
        <source>the provider's answer ended without a result</source>
        <translation>die Antwort des Anbieters endete ohne Ergebnis</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderConfig</name>
    <message>
        <source>%1 must be a list of strings</source>
        <translation>%1 muss eine Liste von Strings sein</translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation>%1 muss ein Objekt sein</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderKeysBox</name>
    <message>
        <source>Providers</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Save Key</source>
        <translation>Schlüssel speichern</translation>
    </message>
    <message>
        <source>Remove Key</source>
        <translation>Schlüssel entfernen</translation>
    </message>
    <message>
        <source>qcode has no system keychain to keep keys in. Each provider's key can come from its environment variable instead.</source>
        <translation>qcode hat keinen System-Schlüsselbund, in dem es Schlüssel aufbewahren könnte. Der Schlüssel jedes Anbieters kann stattdessen aus seiner Umgebungsvariable kommen.</translation>
    </message>
    <message>
        <source>%1 (custom)</source>
        <translation>%1 (benutzerdefiniert)</translation>
    </message>
    <message>
        <source>Pick a provider to set its key.</source>
        <translation>Wähle einen Anbieter, um seinen Schlüssel festzulegen.</translation>
    </message>
    <message>
        <source>API key for %1:</source>
        <translation>API-Schlüssel für %1:</translation>
    </message>
    <message>
        <source>Using %1; a key saved here is used instead</source>
        <translation>Verwendet %1; ein hier gespeicherter Schlüssel hat Vorrang</translation>
    </message>
    <message>
        <source>The config's options.apiKey is used before any key saved here</source>
        <translation>options.apiKey aus der Konfiguration hat Vorrang vor jedem hier gespeicherten Schlüssel</translation>
    </message>
    <message>
        <source>A key is saved; paste a new one to replace it</source>
        <translation>Ein Schlüssel ist gespeichert; füge einen neuen ein, um ihn zu ersetzen</translation>
    </message>
    <message>
        <source>Paste the key</source>
        <translation>Schlüssel einfügen</translation>
    </message>
    <message>
        <source>Paste the key, or set %1</source>
        <translation>Schlüssel einfügen oder %1 setzen</translation>
    </message>
    <message>
        <source>Paste the key for %1 first.</source>
        <translation>Füge zuerst den Schlüssel für %1 ein.</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>Kein System-Schlüsselbund verfügbar.</translation>
    </message>
    <message>
        <source>Saving the key for %1 in the system keychain…</source>
        <translation>Der Schlüssel für %1 wird im System-Schlüsselbund gespeichert…</translation>
    </message>
    <message>
        <source>The key for %1 is saved in the system keychain.</source>
        <translation>Der Schlüssel für %1 ist im System-Schlüsselbund gespeichert.</translation>
    </message>
    <message>
        <source>The key for %1 is removed from the system keychain.</source>
        <translation>Der Schlüssel für %1 wurde aus dem System-Schlüsselbund entfernt.</translation>
    </message>
</context>
<context>
    <name>qcode::ProviderRegistry</name>
    <message>
        <source>No system keychain is available to keep the key in.</source>
        <translation>Kein System-Schlüsselbund verfügbar, um den Schlüssel aufzubewahren.</translation>
    </message>
    <message>
        <source>No system keychain is available.</source>
        <translation>Kein System-Schlüsselbund verfügbar.</translation>
    </message>
    <message>
        <source>Provider %1 uses the package %2, whose API qcode does not speak; it is left out.</source>
        <translation>Der Anbieter %1 verwendet das Paket %2, dessen API qcode nicht spricht; er wird ausgelassen.</translation>
    </message>
    <message>
        <source>Provider %1 has no usable base URL; set provider.%1.options.baseURL.</source>
        <translation>Der Anbieter %1 hat keine brauchbare Basis-URL; setze provider.%1.options.baseURL.</translation>
    </message>
    <message>
        <source>The config's model "%1" is not of the form provider/model.</source>
        <translation>Das Modell „%1“ aus der Konfiguration hat nicht die Form anbieter/modell.</translation>
    </message>
    <message>
        <source>No model provider is set up. Set an API key (for example ANTHROPIC_API_KEY or OPENAI_API_KEY), add a provider to opencode.json, or start a local server such as Ollama.</source>
        <translation>Es ist kein Modellanbieter eingerichtet. Setze einen API-Schlüssel (zum Beispiel ANTHROPIC_API_KEY oder OPENAI_API_KEY), füge einen Anbieter in opencode.json hinzu oder starte einen lokalen Server wie Ollama.</translation>
    </message>
    <message>
        <source>The provider %1 offers no models.</source>
        <translation>Der Anbieter %1 bietet keine Modelle an.</translation>
    </message>
</context>
<context>
    <name>qcode::QuestionCenter</name>
    <message>
        <source>The agent asked "%1", but nobody can answer questions here; the question was dismissed.</source>
        <translation>Der Agent hat „%1“ gefragt, aber hier kann niemand Fragen beantworten; die Frage wurde verworfen.</translation>
    </message>
</context>
<context>
    <name>qcode::QuestionDialog</name>
    <message>
        <source>The agent asks, in a session without a title</source>
        <translation>Der Agent fragt in einer Sitzung ohne Titel</translation>
    </message>
    <message>
        <source>The agent asks, in session “%1”</source>
        <translation>Der Agent fragt in der Sitzung „%1“</translation>
    </message>
    <message>
        <source>A question for you</source>
        <translation>Eine Frage an dich</translation>
    </message>
    <message>
        <source>Questions for you</source>
        <translation>Fragen an dich</translation>
    </message>
    <message>
        <source>&amp;Dismiss</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>Leave the questions unanswered; the agent stops and waits for your next message.</source>
        <translation>Die Fragen unbeantwortet lassen; der Agent hält an und wartet auf deine nächste Nachricht.</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Zurück</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>&amp;Weiter</translation>
    </message>
    <message>
        <source>&amp;Submit</source>
        <translation>Ab&amp;senden</translation>
    </message>
    <message>
        <source>Question %1</source>
        <translation>Frage %1</translation>
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
        <translation>Wähle alle passenden aus.</translation>
    </message>
    <message>
        <source>&amp;Other…</source>
        <translation>&amp;Andere…</translation>
    </message>
    <message>
        <source>Your own answer</source>
        <translation>Deine eigene Antwort</translation>
    </message>
</context>
<context>
    <name>qcode::QueuedPromptRow</name>
    <message>
        <source>Queued</source>
        <translation>Eingereiht</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Bearbeiten</translation>
    </message>
    <message>
        <source>Edit this queued prompt (F2); Enter saves, Escape cancels</source>
        <translation>Diesen eingereihten Prompt bearbeiten (F2); Eingabe speichert, Escape bricht ab</translation>
    </message>
    <message>
        <source>Remove from the queue (Delete)</source>
        <translation>Aus der Warteschlange entfernen (Entf)</translation>
    </message>
    <message>
        <source>Remove from the queue</source>
        <translation>Aus der Warteschlange entfernen</translation>
    </message>
    <message>
        <source>Send now</source>
        <translation>Jetzt senden</translation>
    </message>
    <message>
        <source>Send this prompt now; it waits behind a running answer</source>
        <translation>Diesen Prompt jetzt senden; er wartet hinter einer laufenden Antwort</translation>
    </message>
</context>
<context>
    <name>qcode::ReasoningWidget</name>
    <message>
        <source>Show or hide the model's reasoning</source>
        <translation>Die Überlegungen des Modells ein- oder ausblenden</translation>
    </message>
    <message>
        <source>(no reasoning text)</source>
        <translation>(kein Text zu den Überlegungen)</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>Thought for %1 s</source>
        <translation>%1 s nachgedacht</translation>
    </message>
</context>
<context>
    <name>qcode::ReplyStream</name>
    <message>
        <source>the request was stopped</source>
        <translation>die Anfrage wurde angehalten</translation>
    </message>
    <message>
        <source>the network is shutting down</source>
        <translation>das Netzwerk wird heruntergefahren</translation>
    </message>
    <message>
        <source>%1 is not an http or https address</source>
        <translation>%1 ist keine http- oder https-Adresse</translation>
    </message>
    <message>
        <source>%1 names no host</source>
        <translation>%1 nennt keinen Host</translation>
    </message>
    <message>
        <source>the header "%1" contains a line break and was not sent</source>
        <translation>der Header „%1“ enthält einen Zeilenumbruch und wurde nicht gesendet</translation>
    </message>
    <message>
        <source>the response from %1 grew beyond %2</source>
        <translation>die Antwort von %1 wurde größer als %2</translation>
    </message>
    <message>
        <source>%1 redirected to an insecure address (%2)</source>
        <translation>%1 leitete auf eine unsichere Adresse um (%2)</translation>
    </message>
    <message>
        <source>%1 redirected too often or to an invalid address</source>
        <translation>%1 leitete zu oft oder auf eine ungültige Adresse um</translation>
    </message>
    <message>
        <source>%1 sent no response within %2 s</source>
        <translation>%1 hat innerhalb von %2 s nicht geantwortet</translation>
    </message>
    <message>
        <source>%1 sent nothing for %2 s in the middle of its answer</source>
        <translation>%1 hat mitten in der Antwort %2 s lang nichts gesendet</translation>
    </message>
    <message>
        <source>%1 refused the connection</source>
        <translation>%1 hat die Verbindung abgelehnt</translation>
    </message>
    <message>
        <source>the host %1 was not found</source>
        <translation>der Host %1 wurde nicht gefunden</translation>
    </message>
    <message>
        <source>%1 closed the connection in the middle of its answer</source>
        <translation>%1 hat die Verbindung mitten in der Antwort geschlossen</translation>
    </message>
    <message>
        <source>%1 closed the connection without an answer</source>
        <translation>%1 hat die Verbindung ohne Antwort geschlossen</translation>
    </message>
    <message>
        <source>the certificate of %1 was refused: %2</source>
        <translation>das Zertifikat von %1 wurde abgelehnt: %2</translation>
    </message>
    <message>
        <source>the secure connection to %1 failed: %2</source>
        <translation>die sichere Verbindung zu %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>the proxy asks for a user name and password that qcode does not have; put them in the proxy address (http://user:password@host:port) or in Settings</source>
        <translation>der Proxy verlangt einen Benutzernamen und ein Passwort, die qcode nicht hat; geben Sie sie in der Proxy-Adresse (http://benutzer:passwort@host:port) oder in den Einstellungen an</translation>
    </message>
    <message>
        <source>the proxy on the way to %1 failed: %2</source>
        <translation>der Proxy auf dem Weg zu %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1 sent a response that is not HTTP qcode can read: %2</source>
        <translation>%1 hat eine Antwort gesendet, die kein für qcode lesbares HTTP ist: %2</translation>
    </message>
    <message>
        <source>the connection to %1 failed: %2</source>
        <translation>die Verbindung zu %1 ist fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>qcode::RetryBanner</name>
    <message>
        <source>Stop</source>
        <translation>Stoppen</translation>
    </message>
    <message>
        <source>Stop retrying and end this turn (Esc)</source>
        <translation>Nicht weiter versuchen und diese Runde beenden (Esc)</translation>
    </message>
    <message>
        <source>The provider did not answer</source>
        <translation>Der Anbieter hat nicht geantwortet</translation>
    </message>
    <message numerus="yes">
        <source>%1. Retrying in %n s (attempt %2)…</source>
        <translation>
            <numerusform>%1. Neuer Versuch in %n s (Versuch %2)…</numerusform>
            <numerusform>%1. Neuer Versuch in %n s (Versuch %2)…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1. Retrying now (attempt %2)…</source>
        <translation>%1. Neuer Versuch jetzt (Versuch %2)…</translation>
    </message>
</context>
<context>
    <name>qcode::RevertBanner</name>
    <message>
        <source>Redo</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Bring back the next undone prompt and its changes (%1)</source>
        <translation>Den nächsten rückgängig gemachten Prompt samt seinen Änderungen zurückholen (%1)</translation>
    </message>
    <message>
        <source>No files needed restoring.</source>
        <translation>Keine Dateien mussten wiederhergestellt werden.</translation>
    </message>
    <message>
        <source>, </source>
        <translation>, </translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation>
            <numerusform>%1 und %n weitere</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restored %n file(s): %1.</source>
        <translation>
            <numerusform>%n Datei wiederhergestellt: %1.</numerusform>
            <numerusform>%n Dateien wiederhergestellt: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Undid %n message(s). %1 They are removed for good when you send the next prompt.</source>
        <translation>
            <numerusform>%n Nachricht rückgängig gemacht. %1 Sie wird endgültig entfernt, wenn Sie den nächsten Prompt senden.</numerusform>
            <numerusform>%n Nachrichten rückgängig gemacht. %1 Sie werden endgültig entfernt, wenn Sie den nächsten Prompt senden.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>qcode::RunCommand</name>
    <message>
        <source>Unknown agent "%1". Agents: %2.</source>
        <translation>Unbekannter Agent „%1“. Agenten: %2.</translation>
    </message>
    <message>
        <source>"%1" is a subagent; `qcode run` needs a primary agent: %2.</source>
        <translation>„%1“ ist ein Subagent; `qcode run` braucht einen primären Agenten: %2.</translation>
    </message>
    <message>
        <source>Session not found: %1.</source>
        <translation>Sitzung nicht gefunden: %1.</translation>
    </message>
    <message>
        <source>No session to continue in %1: run without --continue to start one.</source>
        <translation>Keine Sitzung zum Fortsetzen in %1: Starte ohne --continue, um eine zu beginnen.</translation>
    </message>
    <message>
        <source>The database could not be opened.</source>
        <translation>Die Datenbank konnte nicht geöffnet werden.</translation>
    </message>
    <message>
        <source>Interrupted.</source>
        <translation>Unterbrochen.</translation>
    </message>
</context>
<context>
    <name>qcode::SecretLineEdit</name>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>Show or hide the key</source>
        <translation>Den Schlüssel anzeigen oder verbergen</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Verbergen</translation>
    </message>
</context>
<context>
    <name>qcode::SessionCompaction</name>
    <message>
        <source>There is no session %1 to compact.</source>
        <translation>Es gibt keine Sitzung %1 zum Verdichten.</translation>
    </message>
</context>
<context>
    <name>qcode::SessionController</name>
    <message>
        <source>Open a project folder first.</source>
        <translation>Öffne zuerst einen Projektordner.</translation>
    </message>
    <message>
        <source>The request this step answered is no longer there to send again.</source>
        <translation>Die Anfrage, die dieser Schritt beantwortet hat, ist nicht mehr da und kann nicht erneut gesendet werden.</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>Nichts rückgängig zu machen.</translation>
    </message>
    <message>
        <source>Nothing to redo.</source>
        <translation>Nichts wiederherzustellen.</translation>
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
        <translation>Keine Sitzung geöffnet</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>Neue Sitzung</translation>
    </message>
    <message>
        <source>Not sent: fix %1 first (see above), then reload.</source>
        <translation>Nicht gesendet: Korrigieren Sie zuerst %1 (siehe oben) und laden Sie dann neu.</translation>
    </message>
</context>
<context>
    <name>qcode::SessionScheduler</name>
    <message>
        <source>The folder %1 for session locks cannot be made.</source>
        <translation>Der Ordner %1 für Sitzungssperren kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>Session %1 is running in another qcode; wait for it to finish there, then try again.</source>
        <translation>Sitzung %1 läuft in einem anderen qcode; warten Sie, bis sie dort fertig ist, und versuchen Sie es dann erneut.</translation>
    </message>
    <message>
        <source>The lock of session %1 cannot be taken: %2 is not writable.</source>
        <translation>Die Sperre von Sitzung %1 kann nicht gesetzt werden: %2 ist nicht beschreibbar.</translation>
    </message>
    <message>
        <source>Session %1 is already running.</source>
        <translation>Sitzung %1 läuft bereits.</translation>
    </message>
</context>
<context>
    <name>qcode::SessionSidebar</name>
    <message>
        <source>Search sessions</source>
        <translation>Sitzungen suchen</translation>
    </message>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Start a new session (%1)</source>
        <translation>Eine neue Sitzung beginnen (%1)</translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation>Sitzung löschen</translation>
    </message>
    <message>
        <source>Delete “%1”?</source>
        <translation>„%1“ löschen?</translation>
    </message>
    <message numerus="yes">
        <source>Its messages and its %n subagent session(s) are deleted too. This cannot be undone.</source>
        <translation>
            <numerusform>Die Nachrichten der Sitzung und ihre %n Subagenten-Sitzung werden ebenfalls gelöscht. Das lässt sich nicht rückgängig machen.</numerusform>
            <numerusform>Die Nachrichten der Sitzung und ihre %n Subagenten-Sitzungen werden ebenfalls gelöscht. Das lässt sich nicht rückgängig machen.</numerusform>
        </translation>
    </message>
    <message>
        <source>Its messages are deleted too. This cannot be undone.</source>
        <translation>Die Nachrichten der Sitzung werden ebenfalls gelöscht. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>Ö&amp;ffnen</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>&amp;Fork</source>
        <translation>&amp;Abzweigen</translation>
    </message>
    <message>
        <source>A copy of the whole session, to try another way</source>
        <translation>Eine Kopie der ganzen Sitzung, um einen anderen Weg zu versuchen</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>No sessions match</source>
        <translation>Keine Sitzung passt</translation>
    </message>
    <message>
        <source>Find sessions by title or by what was said in them (%1); Esc clears</source>
        <translation>Sitzungen nach Titel oder Inhalt finden (%1); Esc leert</translation>
    </message>
</context>
<context>
    <name>qcode::SessionTreeModel</name>
    <message>
        <source>%1
Created %2, last active %3</source>
        <translation>%1
Erstellt %2, zuletzt aktiv %3</translation>
    </message>
    <message>
        <source>Waiting for your answer</source>
        <translation>Wartet auf deine Antwort</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Arbeitet…</translation>
    </message>
    <message>
        <source>Subagent session</source>
        <translation>Subagent-Sitzung</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>Neue Sitzung</translation>
    </message>
</context>
<context>
    <name>qcode::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Providers</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Permissions</source>
        <translation>Berechtigungen</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Providers, models and permissions are saved in qcode's config file. &lt;a href="config"&gt;Show config file&lt;/a&gt;</source>
        <translation>Anbieter, Modelle und Berechtigungen werden in der Konfigurationsdatei von qcode gespeichert. &lt;a href="config"&gt;Konfigurationsdatei zeigen&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>qcode::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>In the prompt box</source>
        <translation>Im Eingabefeld</translation>
    </message>
    <message>
        <source>Enter, Ctrl+Enter</source>
        <translation>Eingabe, Strg+Eingabe</translation>
    </message>
    <message>
        <source>Send (while the agent works, the prompt is queued)</source>
        <translation>Senden (während der Agent arbeitet, wird der Prompt eingereiht)</translation>
    </message>
    <message>
        <source>Shift+Enter</source>
        <translation>Umschalt+Eingabe</translation>
    </message>
    <message>
        <source>New line</source>
        <translation>Neue Zeile</translation>
    </message>
    <message>
        <source>Up / Down</source>
        <translation>Hoch / Runter</translation>
    </message>
    <message>
        <source>Earlier / later prompts (on the first / last line)</source>
        <translation>Frühere / spätere Prompts (in der ersten / letzten Zeile)</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Umschalt+Tab</translation>
    </message>
    <message>
        <source>Next / previous agent</source>
        <translation>Nächster / vorheriger Agent</translation>
    </message>
    <message>
        <source>Mention a project file or an agent</source>
        <translation>Eine Projektdatei oder einen Agenten erwähnen</translation>
    </message>
    <message>
        <source>/ at the start</source>
        <translation>/ am Anfang</translation>
    </message>
    <message>
        <source>Commands</source>
        <translation>Befehle</translation>
    </message>
    <message>
        <source>! at the start</source>
        <translation>! am Anfang</translation>
    </message>
    <message>
        <source>Run the line in your shell</source>
        <translation>Die Zeile in Ihrer Shell ausführen</translation>
    </message>
    <message>
        <source>Ctrl+Shift+M</source>
        <translation>Strg+Umschalt+M</translation>
    </message>
    <message>
        <source>Choose the model</source>
        <translation>Das Modell wählen</translation>
    </message>
    <message>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <source>Close the popup; otherwise stop the agent while it works</source>
        <translation>Das Popup schließen; sonst den Agenten anhalten, während er arbeitet</translation>
    </message>
    <message>
        <source>Ctrl+. / Ctrl+Shift+.</source>
        <translation>Strg+. / Strg+Umschalt+.</translation>
    </message>
    <message>
        <source>Leave the prompt box (Ctrl+Tab while a list of suggestions is open)</source>
        <translation>Das Prompt-Feld verlassen (Strg+Tab, solange eine Vorschlagsliste offen ist)</translation>
    </message>
</context>
<context>
    <name>qcode::SseReader</name>
    <message>
        <source>The provider sent a line longer than %1 bytes; the stream was stopped.</source>
        <translation>Der Anbieter hat eine Zeile gesendet, die länger als %1 Byte ist; der Stream wurde gestoppt.</translation>
    </message>
    <message>
        <source>The provider sent an event larger than %1 bytes; the stream was stopped.</source>
        <translation>Der Anbieter hat ein Ereignis gesendet, das größer als %1 Byte ist; der Stream wurde gestoppt.</translation>
    </message>
</context>
<context>
    <name>qcode::TitleGenerator</name>
    <message>
        <source>There is no session %1 to name.</source>
        <translation>Es gibt keine Sitzung %1, die einen Titel bekommen könnte.</translation>
    </message>
    <message>
        <source>The model answered without a title.</source>
        <translation>Das Modell hat ohne Titel geantwortet.</translation>
    </message>
    <message>
        <source>The session %1 was deleted before it got a title.</source>
        <translation>Die Sitzung %1 wurde gelöscht, bevor sie einen Titel bekam.</translation>
    </message>
    <message>
        <source>The title was not generated: stopped.</source>
        <translation>Der Titel wurde nicht erzeugt: abgebrochen.</translation>
    </message>
</context>
<context>
    <name>qcode::TodoPanel</name>
    <message>
        <source>Show or hide the agent's plan</source>
        <translation>Den Plan des Agenten ein- oder ausblenden</translation>
    </message>
    <message>
        <source>%1 · priority %2</source>
        <translation>%1 · Priorität %2</translation>
    </message>
    <message>
        <source>Plan: %1 of %2 done</source>
        <translation>Plan: %1 von %2 erledigt</translation>
    </message>
</context>
<context>
    <name>qcode::ToolCard</name>
    <message>
        <source>Proposed change: %1</source>
        <translation>Vorgeschlagene Änderung: %1</translation>
    </message>
    <message>
        <source>Stopped before it finished.</source>
        <translation>Abgebrochen, bevor das Tool fertig war.</translation>
    </message>
</context>
<context>
    <name>qcode::ToolCardHeader</name>
    <message>
        <source>Press Space to show or hide the details</source>
        <translation>Leertaste drücken, um die Details ein- oder auszublenden</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Open the subagent's session</source>
        <translation>Die Sitzung des Subagenten öffnen</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>a tool call's title, then its status</comment>
        <translation>%1, %2</translation>
    </message>
</context>
<context>
    <name>qcode::UserTextWidget</name>
    <message>
        <source>Show less</source>
        <translation>Weniger anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>+%n line(s)</source>
        <translation>
            <numerusform>+%n Zeile</numerusform>
            <numerusform>+%n Zeilen</numerusform>
        </translation>
    </message>
</context>
</TS>
