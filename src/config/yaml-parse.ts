/**
 * yaml's `parse`, behind a module of ours that `readStructuredFile` imports lazily. An `import()` of
 * the CommonJS package itself keeps only its default export in the CLI bundle (decision 0161);
 * a static import here keeps the names.
 */
export { parse } from 'yaml';
