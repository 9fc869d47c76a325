#!/usr/bin/env node
// The published command runs the TypeScript sources directly: tsx compiles them on load.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../planner/cli.ts');
process.exitCode = await main(process.argv.slice(2));
