// The ES module face of fsnative/fsmcp: the same exports as `require('fsnative/fsmcp')`.
import fsmcp from './fsmcp.js';

export const { registerGrep, registerGlob, fsGrep, fsGlob, GREP_TOOL, GLOB_TOOL, GREP_TOTAL_CAP, GLOB_RESULT_CAP } = fsmcp;
export default fsmcp;
