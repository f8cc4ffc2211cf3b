// What fsnative-mcp-filesystem changes in search_files, read from the environment (the bin
// sets it from its flags): a result cap and a time budget, each a partial answer marked as
// such, and .gitignore-aware walks.

/** The defaults: a cap far above what a model can read, a budget below clients' timeouts. */
export const DEFAULT_MAX_RESULTS = 10_000;
export const DEFAULT_TIME_BUDGET_MS = 30_000;

/** Environment variables: a number (0 turns the limit off) and a flag. */
export const ENV = {
  maxResults: 'FSNATIVE_MCPFS_MAX_RESULTS',
  timeBudgetMs: 'FSNATIVE_MCPFS_TIME_BUDGET_MS',
  gitignore: 'FSNATIVE_MCPFS_GITIGNORE',
};

function limit(name, fallback) {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number (0: no limit), not ${JSON.stringify(text)}`);
  }
  return value === 0 ? null : value;
}

/** The settings in force now: `maxResults` and `timeBudgetMs` (null: none), `gitignore`. */
export function searchSettings() {
  return {
    maxResults: limit(ENV.maxResults, DEFAULT_MAX_RESULTS),
    timeBudgetMs: limit(ENV.timeBudgetMs, DEFAULT_TIME_BUDGET_MS),
    gitignore: process.env[ENV.gitignore] === '1',
  };
}
