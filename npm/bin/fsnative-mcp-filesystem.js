#!/usr/bin/env node
'use strict';
// `fsnative-mcp-filesystem [flags] DIR...`: the official MCP filesystem server on fsnative
// (see docs/mcp-filesystem.md).
import('../mcp-filesystem/server.mjs')
  .then((server) => server.main())
  .catch((err) => {
    process.stderr.write(`fsnative-mcp-filesystem: ${err.message}\n`);
    process.exitCode = 1;
  });
