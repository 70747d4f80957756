export const TYPES: readonly string[];
export interface PackageVersion {
  readonly name: string;
  readonly version: string;
}
export interface Fragment {
  readonly file: string;
  readonly area: string;
  readonly slug: string;
  readonly type: string;
  readonly text: string;
}
export function readPackages(root?: string): Record<string, PackageVersion>;
export function readFragments(
  dir: string,
  packages: Record<string, PackageVersion>,
): { fragments: Fragment[]; problems: string[] };
export function assemble(
  fragments: readonly Fragment[],
  packages: Record<string, PackageVersion>,
  date: string,
): string;
export function prepend(existing: string, notes: string): string;
