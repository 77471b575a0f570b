export const enum E { A = 1 << 0, B = A | 2 }
declare module 'x' { export function g(): void }
namespace N.M { export const z = 1 }
