// Type-checks fsnative/mcp-filesystem's declarations as a TypeScript caller uses them (tsc only).
import {
  formatSize,
  getAllowedDirectories,
  isPathWithinAllowedDirectories,
  searchFilesWithValidation,
  setAllowedDirectories,
  validatePath,
} from 'fsnative/mcp-filesystem';

const inside: boolean = isPathWithinAllowedDirectories('/a/b', ['/a']);
setAllowedDirectories(['/tmp']);
const dirs: string[] = getAllowedDirectories();

async function search(): Promise<string[]> {
  const root: string = await validatePath('/tmp');
  return searchFilesWithValidation(root, '**/*.ts', dirs, { excludePatterns: ['node_modules'] });
}

const size: string = formatSize(1024);
void inside;
void search;
void size;
