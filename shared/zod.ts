/**
 * The zod every Lambda-bundled module imports (`import * as z from '…/shared/zod'`):
 * zod/mini, whose functional API lets esbuild keep only the schemas and checks
 * in use (about 20-60 KiB per bundle, against about 440 KiB for classic zod's
 * methods). zod/mini ships without error messages ("Invalid input" for every
 * problem); configuring classic zod's English ones here keeps configuration
 * errors, 400s and event validation saying what to fix. Same core, so the same
 * issues and the same `z.toJSONSchema` output as classic zod.
 */
import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';
