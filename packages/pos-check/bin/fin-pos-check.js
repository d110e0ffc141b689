#!/usr/bin/env node
// fin-pos-check: a committed launcher, so installing the workspace links the bin before any build; the command is built into dist.
import '../dist/check-cli.js';
