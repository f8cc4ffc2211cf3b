// The ES module face of fsnative/fff: the same exports as `require('fsnative/fff')`.
import fff from './fff.js';

export const { FffTools, main, FIND_LIMIT, GREP_LIMIT, MAX_FILESIZE, MATCHES_PER_FILE, MAX_LINE_BYTES } = fff;
export default fff;
