export function generate(): string;
