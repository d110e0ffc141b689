#!/usr/bin/env node
// fin-server-kit-migrate: a committed launcher, so installing the workspace links the bin before any build; the command is built into dist.
import '../dist/migrate-cli.js';
