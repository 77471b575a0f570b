export function o(a: string): string;
export function o(a: number): number;
export function o(a: any) { return a }
