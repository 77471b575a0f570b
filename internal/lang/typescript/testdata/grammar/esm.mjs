import def, * as ns from './x.mjs';
export { def as default, ns };
await Promise.resolve();
