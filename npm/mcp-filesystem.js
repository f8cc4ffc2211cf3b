'use strict';
// The CommonJS face of fsnative/mcp-filesystem (the server it wraps is an ES module, so this
// needs a Node that can require one: 20.19 or later).
module.exports = require('./mcp-filesystem.mjs');
