/** The data dir: an embedded append-only journal with snapshots (decision 0080). */
export { PersistentState } from './persistent-state.js';
