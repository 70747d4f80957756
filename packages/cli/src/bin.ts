#!/usr/bin/env node
import { main } from './cli.js';
import { ExitCode } from './exit-codes.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = ExitCode.FAILURE;
  },
);
