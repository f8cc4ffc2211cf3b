// With --content-search, the official server's McpServer (its own SDK copy, passed by the
// hooks) gains one tool, search_file_contents: fsnative's grep in ripgrep's `rg -n` output,
// a page at a time. The server's own tools are untouched.
import { currentSandbox, validatePath } from './lib.mjs';
import { searchSettings } from './settings.mjs';

const query = new URL(import.meta.url).searchParams;
const sdk = await import(query.get('with0'));
const { z } = await import(query.get('with1'));

/** The tool's description, as a model reads it. */
export const DESCRIPTION =
  'Search the contents of files for a regular expression (ripgrep syntax), like `rg -n PATTERN PATH`. ' +
  'Returns matching lines as `path:line:text` (context lines as `path-line-text`, groups separated by `--`). ' +
  'Honours .gitignore and skips hidden files, as rg does. `include` keeps only files matching those globs ' +
  '(rg -g; a leading ! excludes). At most `limit` matching lines per call; when more remain, the answer ' +
  'ends with a line giving the `cursor` to pass back, with the same arguments, for the next page. ' +
  'Only searches within allowed directories.';

/** Runs one page of a content search and returns the tool's text. */
export async function searchFileContents(args) {
  const validPath = await validatePath(args.path);
  const box = await currentSandbox();
  if (!box) throw new Error('No allowed directory exists');
  const found = await box.grepText(
    {
      pattern: args.pattern,
      path: validPath,
      globs: args.include,
      caseMode: args.ignoreCase ? 'insensitive' : 'sensitive',
      context: args.context,
      limit: args.limit,
      cursor: args.cursor || null,
      timeoutMs: searchSettings().timeBudgetMs,
    },
    { format: 'standard', pathStyle: 'absolute', withFilename: true, lineNumber: true },
  );
  let text = found.text || 'No matches found';
  if (found.nextCursor) {
    const why = found.truncated === 'timeout' ? 'time budget reached' : `${args.limit} matching lines shown`;
    text += `${found.text ? '' : '\n'}[more matches (${why}): call again with cursor "${found.nextCursor}"]`;
  }
  return text;
}

export class McpServer extends sdk.McpServer {
  constructor(...args) {
    super(...args);
    this.registerTool(
      'search_file_contents',
      {
        title: 'Search File Contents',
        description: DESCRIPTION,
        inputSchema: {
          pattern: z.string(),
          path: z.string(),
          include: z.array(z.string()).optional().default([]),
          ignoreCase: z.boolean().optional().default(false),
          context: z.number().int().min(0).max(20).optional().default(0),
          limit: z.number().int().min(1).max(2000).optional().default(200),
          cursor: z.string().optional(),
        },
        outputSchema: { content: z.string() },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (args) => {
        const text = await searchFileContents(args);
        return { content: [{ type: 'text', text }], structuredContent: { content: text } };
      },
    );
  }
}
