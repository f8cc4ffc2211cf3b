#!/usr/bin/env node
'use strict';
// `fsnative-mcp-filesystem [flags] DIR...`: the official MCP filesystem server on fsnative
// (see docs/mcp-filesystem.md). The bin of the package fsnative-mcp-filesystem, which depends on
// fsnative and on the server (npm/scripts/pack.js makes it); in a checkout, fsnative is this
// package itself.
import('fsnative/mcp-filesystem/server')
  .then((server) => server.main(process.argv.slice(2), __filename))
  .catch((err) => {
    process.stderr.write(`fsnative-mcp-filesystem: ${err.message}\n`);
    process.exitCode = 1;
  });
