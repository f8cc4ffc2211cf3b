#!/usr/bin/env node
'use strict';
// `fsnative-fff-mcp [--index] [--prefix P] [--verbose] [DIR...]`: Terraphim's FFF tools over stdio (fsnative/fff's `main`).
require('../fff.js')
  .main()
  .catch((err) => {
    process.stderr.write(`${err.message}\n`);
    process.exitCode = 1;
  });
