// Preload for `node --import <this file> …`: appends the URL of every module the process loads
// (ES modules, and the entry of each CommonJS package imported from one) to $RECORD_MODULES_FILE,
// one per line, before the module runs. Used to check what start-up loads.
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url, {
  data: { file: process.env.RECORD_MODULES_FILE },
});
