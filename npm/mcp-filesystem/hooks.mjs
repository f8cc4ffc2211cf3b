// Module customization hooks (module.register) for fsnative-mcp-filesystem: when the official
// server's own modules import `./lib.js`, `./path-validation.js` or (with the content-search
// tool) the SDK's McpServer, they get fsnative's instead. Everything else resolves as usual.

/**
 * Redirects: the importing module's URL prefix, and specifier -> replacement URL. A
 * replacement may also ask for where other specifiers resolve from the importing module
 * (`{ url, with: [specifier, ...] }`): it gets them as query parameters `with0`, `with1`, ...
 * (the first is the redirected specifier itself), so it can load the server's own copies.
 */
let serverDist = '';
let replacements = {};

export async function initialize(data) {
  serverDist = data.serverDist;
  replacements = data.replacements;
}

export async function resolve(specifier, context, nextResolve) {
  const replacement = replacements[specifier];
  if (replacement && context.parentURL?.startsWith(serverDist)) {
    if (typeof replacement === 'string') return { url: replacement, shortCircuit: true };
    const url = new URL(replacement.url);
    for (const [i, wanted] of [specifier, ...replacement.with].entries()) {
      url.searchParams.set(`with${i}`, (await nextResolve(wanted, context)).url);
    }
    return { url: url.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
