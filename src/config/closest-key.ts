/** Where settings name the closest valid key (defined in src/model, which the domain's refusals share). */
export { closestKey, unknownKeyMessage } from '../model/closest-key.js';
