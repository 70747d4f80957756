export function assembleDots(): Promise<string>;
export function dotsModuleSource(base64: string): string;
