const c = { a: 1 } satisfies Record<string, number>;
using r = getResource();
