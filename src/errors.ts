/** The error hierarchy (defined in src/model, so the model's refusals raise it without importing upward). */
export * from './model/errors.js';
