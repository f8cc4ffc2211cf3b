// The ES module face of fsnative: the same classes as `require('fsnative')`.
import fsnative from './index.js';

export const { Sandbox, FsnativeError, InvalidOptionError, AbortError } = fsnative;
export default fsnative;
