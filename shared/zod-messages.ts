import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * zod/mini (kept for its size: classic zod is about 440 KiB of every bundle)
 * ships without error messages and reports every problem as "Invalid input".
 * Importing this module loads the English messages classic zod uses, so
 * configuration errors and 400s keep saying what to fix. Every module that turns
 * zod issues into messages imports it.
 */
z.config(en());
