// A scripted MCP peer on stdio for what the npm servers cannot be made to
// do: a garbled line, a crash in the middle of a call, tools/list in pages,
// a tool list that changes. Plain node, no packages.
'use strict';
const readline = require('readline');

let tools = [
    { name: 'echo', description: 'Echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    { name: 'garble', description: 'Writes a line that is not JSON, then answers', inputSchema: { type: 'object' } },
    { name: 'crash', description: 'Exits in the middle of the call', inputSchema: { type: 'object' } },
    { name: 'grow', description: 'Adds a tool and says so', inputSchema: { type: 'object' } },
    { name: 'env', description: 'Answers an environment variable', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } },
];
const pageSize = 2;

function send(message) {
    process.stdout.write(JSON.stringify(Object.assign({ jsonrpc: '2.0' }, message)) + '\n');
}

process.stderr.write('scripted MCP peer ready\n');
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
    let message;
    try {
        message = JSON.parse(line);
    } catch (e) {
        return;
    }
    const id = message.id;
    const params = message.params || {};
    switch (message.method) {
    case 'initialize':
        send({ id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: { listChanged: true } },
                             serverInfo: { name: 'scripted', version: '1.0.0' } } });
        break;
    case 'tools/list': {
        const start = params.cursor ? parseInt(params.cursor, 10) : 0;
        const result = { tools: tools.slice(start, start + pageSize) };
        if (start + pageSize < tools.length)
            result.nextCursor = String(start + pageSize);
        send({ id, result });
        break;
    }
    case 'tools/call':
        switch (params.name) {
        case 'echo':
            send({ id, result: { content: [{ type: 'text', text: 'echo: ' + (params.arguments || {}).text }] } });
            break;
        case 'env':
            send({ id, result: { content: [{ type: 'text', text: process.env[(params.arguments || {}).name] || '' }] } });
            break;
        case 'garble':
            process.stdout.write('this is not JSON-RPC\n');
            process.stdout.write('{"jsonrpc": "2.0", "id": \n');
            send({ id, result: { content: [{ type: 'text', text: 'still here' }] } });
            break;
        case 'crash':
            process.stderr.write('crashing on purpose\n');
            process.exit(3);
            break;
        case 'grow':
            tools = tools.concat([{ name: 'grown', description: 'Added later', inputSchema: { type: 'object' } }]);
            send({ method: 'notifications/tools/list_changed' });
            send({ id, result: { content: [{ type: 'text', text: 'grown' }] } });
            break;
        default:
            send({ id, result: { content: [{ type: 'text', text: 'unknown tool' }], isError: true } });
        }
        break;
    case 'ping':
        send({ id, result: {} });
        break;
    default:
        if (id !== undefined)
            send({ id, error: { code: -32601, message: 'Method not found' } });
    }
});
