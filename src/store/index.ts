/** The data dir: an embedded append-only journal with snapshots (decision 0080). */
export { DATA_DIR_FORMAT, DataDir } from './data-dir.js';
export { type AttachTarget, PersistentState } from './persistent-state.js';
